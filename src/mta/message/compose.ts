// Turns a stored message into the MIME bytes of one delivery: the lean writer (mime.ts) for plain
// text/HTML content, nodemailer's composer for the rest (attachments, AMP, non-ASCII headers),
// with per-recipient tracking when enabled; or the raw message with the headers postern owns
// fixed up (Message-ID, Date; Bcc removed).
import type MailComposerType from "nodemailer/lib/mail-composer";
import type { StoredAttachment, StoredMessage } from "../../core/store-port.ts";
import { decodeContent, type MessageContent } from "../../core/content.ts";
import type { Address } from "../../core/model.ts";
import { prepareTracking, UNSUBSCRIBE_EMAIL_PLACEHOLDERS, type TrackingTemplate } from "../../tracking/rewrite.ts";
import { encodeUnsubscribeAddress, type UnsubscribeScope } from "../../inbound/verp.ts";
import { bounceDomainFor } from "../../core/domain-dns.ts";
import type { TokenCodec } from "../../tracking/token.ts";
import { canWriteLean, writeLean } from "./mime.ts";

export interface ComposeDeps {
  publicUrl: string;
  codec: TokenCodec;
  hostname: string;
  /** For unsubscribe mailboxes (%unsubscribe_email%): the server secret and mta.bounce_domain ("" = bounces.<domain>). */
  mailbox?: { secret: string; bounceDomain: string };
}

/** True when the content asks for a per-recipient unsubscribe mailbox anywhere. */
const asksForMailbox = (c: MessageContent) => UNSUBSCRIBE_EMAIL_PLACEHOLDERS.some(([p]) =>
  c.html?.includes(p) || c.text?.includes(p) || Object.values(c.headers ?? {}).some((v) => v.includes(p)));

const fmt = (a: Address) => (a.name ? { name: a.name, address: a.email } : a.email);

/** A message prepared once for all its recipients: `build(recipientId)` gives one recipient's bytes. */
export interface PreparedMessage {
  /** True when each recipient gets different bytes (tracking tokens inside). */
  isPerRecipient: boolean;
  build(recipientId: string): Promise<Buffer>;
}

export function prepareMessage(msg: StoredMessage, attachments: StoredAttachment[], deps: ComposeDeps): PreparedMessage {
  if (msg.raw) {
    const bytes = fixRawHeaders(Buffer.from(msg.raw), msg);
    return { isPerRecipient: false, build: async () => bytes };
  }
  const content = decodeContent(msg.content!);
  const t = content.tracking;
  const mailbox = deps.mailbox && asksForMailbox(content) ? deps.mailbox : null;
  const tracked = t.opens || t.clicks || t.unsubscribe || (t.honeypot && Boolean(content.html)) || mailbox !== null;
  const unsubscribeEmail = mailbox ? (recipientId: string, scope: UnsubscribeScope) => encodeUnsubscribeAddress({ messageId: msg.id, recipientId,
    bounceDomain: bounceDomainFor(msg.domain, mailbox.bounceDomain), secret: mailbox.secret, scope }) : undefined;
  const template: TrackingTemplate | null = tracked
    ? prepareTracking({ html: content.html, text: content.text, headers: content.headers ?? {} }, {
      publicUrl: deps.publicUrl, domain: msg.domain, messageId: msg.id, codec: deps.codec, opens: t.opens, clicks: t.clicks,
      clickText: t.clickText, unsubscribe: t.unsubscribe, honeypot: t.honeypot, openSubstitutionTag: t.openTag, unsubscribeGroups: t.groups, unsubscribeEmail })
    : null;
  // The honeypot link names the message, not the recipient: alone it needs no per-recipient copy.
  const isPerRecipient = t.opens || t.clicks || t.unsubscribe || mailbox !== null;
  let shared: Promise<Buffer> | null = null;
  const render = (recipientId: string) => {
    if (!template) return compose(msg, content, content, attachments);
    const r = template.render({ recipientId });
    return compose(msg, content, { html: r.html, text: r.text, headers: r.headers }, attachments);
  };
  return {
    isPerRecipient,
    build: (recipientId: string) => (isPerRecipient ? render(recipientId) : (shared ??= render(""))),
  };
}

let composerModule: Promise<typeof MailComposerType> | null = null;
/**
 * nodemailer's composer loads with the first message the lean writer cannot write (attachments,
 * AMP, non-ASCII headers): its modules hold about 5.5 MB in each JavaScript heap that loads them
 * (the main thread and every signing worker), for mail that many servers never send.
 */
const mailComposer = () => (composerModule ??= import("nodemailer/lib/mail-composer").then((m) => m.default));

async function compose(msg: StoredMessage, c: MessageContent, body: Pick<MessageContent, "html" | "text" | "headers">, attachments: StoredAttachment[]): Promise<Buffer> {
  if (canWriteLean(c, body, c.attachments.length)) return writeLean(c, body, msg.messageIdHeader, { "X-Postern-Id": msg.id });
  const wanted = new Set(c.attachments);
  const MailComposer = await mailComposer();
  const composer = new MailComposer({
    from: fmt(c.from), to: (c.displayTo ?? c.to).map(fmt), cc: (c.displayCc ?? c.cc)?.map(fmt), replyTo: c.replyTo?.map(fmt), subject: c.subject,
    text: body.text, html: body.html, amp: c.amp, date: new Date(c.date), messageId: msg.messageIdHeader,
    headers: prepareHeaders({ ...(body.headers ?? {}), "X-Postern-Id": msg.id }),
    attachments: attachments.filter((a) => wanted.has(a.idx)).map((a) => ({ filename: a.filename, contentType: a.contentType,
      content: Buffer.from(a.data), cid: a.contentId ?? undefined, contentDisposition: a.disposition })),
    disableFileAccess: true, disableUrlAccess: true,
  });
  return composer.compile().build();
}

const HEADER_END = /\r?\n\r?\n/;
const PREPARED_MAX_CHARS = 900;

/**
 * Plain ASCII values are passed as prepared so nodemailer does not turn JSON (X-Mailgun-Variables)
 * into RFC 2047 encoded words; long or non-ASCII values are left to its encoder and folding.
 */
function prepareHeaders(headers: Record<string, string>): Record<string, string | { prepared: true; value: string }> {
  const out: Record<string, string | { prepared: true; value: string }> = {};
  for (const [k, v] of Object.entries(headers)) {
    // nodemailer formats address headers itself and drops a prepared value for them (Sender).
    if (/^(sender|reply-to|references)$/i.test(k)) out[k] = v;
    else out[k] = /^[\x20-\x7e]*$/.test(v) && k.length + v.length < PREPARED_MAX_CHARS ? { prepared: true, value: v } : v;
  }
  return out;
}

/** LF line ends as CRLF. RFC 5321 §2.3.8: CR and LF only travel together; a raw message often comes with LF alone
 *  (an email_rfc822 JSON string, an .eml file), and BDAT sends the bytes as they are. */
const crlf = (s: string) => (s.includes("\n") ? s.replace(/(?<!\r)\n/g, "\r\n") : s);

/**
 * Adds Message-ID and Date when missing and drops Bcc (RFC 5322 §3.6.3: not shown to recipients);
 * every line ends with CRLF, the last one too: without it verifiers disagree on the DKIM body hash
 * of a last line with trailing blanks (mailauth trims them, python3-dkim keeps them).
 */
function fixRawHeaders(raw: Buffer, msg: StoredMessage): Buffer {
  const text = raw.toString("latin1");
  const m = HEADER_END.exec(text);
  const headEnd = m ? m.index : text.length;
  let head = text.slice(0, headEnd);
  const rest = text.slice(headEnd);
  head = head.replace(/^bcc:.*(\r?\n[ \t].*)*(\r?\n)?/gim, "");
  const extra: string[] = [];
  if (!/^message-id:/im.test(head)) extra.push(`Message-ID: ${msg.messageIdHeader}`);
  if (!/^date:/im.test(head)) extra.push(`Date: ${new Date(msg.createdAt).toUTCString().replace("GMT", "+0000")}`);
  extra.push(`X-Postern-Id: ${msg.id}`);
  const out = `${extra.join("\r\n")}\r\n${crlf(head).replace(/\r\n$/, "")}${crlf(rest)}`;
  return Buffer.from(out.endsWith("\r\n") ? out : `${out}\r\n`, "latin1");
}

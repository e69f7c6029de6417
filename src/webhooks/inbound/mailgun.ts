// Mailgun's inbound posts: forward() to a URL gets the fully parsed message (or the raw MIME when
// the URL ends in "mime"), store(notify=…) gets the stored message's fields and its URL. Signed
// like every Mailgun webhook: HMAC-SHA256(signing key, timestamp + token).
import { formPost, type Field, type InboundPost } from "./body.ts";
import type { ParsedMail, ReceivedEnvelope } from "./received.ts";
import { stripHtmlReply, stripReply } from "./strip.ts";

export interface MailgunSignature { timestamp: string; token: string; signature: string }

function parsedFields(env: ReceivedEnvelope, mail: ParsedMail, recipient: string): Field[] {
  const stripped = stripReply(mail.text);
  const cids: Record<string, string> = {};
  mail.attachments.forEach((a, i) => { if (a.contentId) cids[`<${a.contentId}>`] = `attachment-${i + 1}`; });
  const fields: Field[] = [
    ["recipient", recipient], ["sender", env.mailFrom], ["from", mail.from], ["subject", mail.subject],
    ["body-plain", mail.text], ["stripped-text", stripped.text], ["stripped-signature", stripped.signature],
    ["body-html", mail.html], ["stripped-html", stripHtmlReply(mail.html)],
    ["message-headers", JSON.stringify(mail.headerLines)], ["content-id-map", JSON.stringify(cids)],
    ["X-Mailgun-Spf", spfWord(env.auth.spf)], ["X-Mailgun-Dkim-Check-Result", env.auth.dkim.some((d) => d.result === "pass") ? "Pass" : "Fail"],
    ["X-Mailgun-Dmarc", env.auth.dmarc],
  ];
  // Mailgun also posts each header (first occurrence) under its own name.
  const names = new Set(fields.map(([k]) => k));
  const seen = new Set<string>();
  for (const [k, v] of mail.headerLines) {
    if (names.has(k) || seen.has(k.toLowerCase())) continue;
    seen.add(k.toLowerCase());
    fields.push([k, v]);
  }
  if (mail.parseNote) fields.push(["X-Postern-Parse-Note", mail.parseNote]);
  return fields;
}

const spfWord = (spf: string) => spf ? spf[0]!.toUpperCase() + spf.slice(1) : "None";

const signed = (s: MailgunSignature): Field[] => [["timestamp", s.timestamp], ["token", s.token], ["signature", s.signature]];

/** forward("https://…"): the parsed message, multipart when it has attachments. */
export async function mailgunForward(env: ReceivedEnvelope, mail: ParsedMail, raw: Uint8Array, recipient: string, url: string, sig: MailgunSignature): Promise<InboundPost> {
  if (/mime\/?$/i.test(new URL(url).pathname)) {
    return formPost([["recipient", recipient], ["sender", env.mailFrom], ["from", mail.from], ["subject", mail.subject],
      ["body-mime", new TextDecoder().decode(raw)], ...signed(sig)], true);
  }
  const files: Field[] = mail.attachments.map((a, i) => [`attachment-${i + 1}`, { filename: a.filename, contentType: a.contentType, data: a.data }]);
  return formPost([...parsedFields(env, mail, recipient), ["attachment-count", String(files.length)], ...signed(sig), ...files], files.length > 0);
}

/** store(notify="https://…"): the stored message's fields, its URL and its attachments' URLs. */
export async function mailgunStoreNotify(env: ReceivedEnvelope, mail: ParsedMail, recipient: string, messageUrl: string, sig: MailgunSignature): Promise<InboundPost> {
  const attachments = mail.attachments.map((a, i) => ({ url: `${messageUrl}/attachments/${i}`, "content-type": a.contentType, name: a.filename, size: a.data.length }));
  return formPost([["domain", env.domain], ...parsedFields(env, mail, recipient), ["attachments", JSON.stringify(attachments)],
    ["message-url", messageUrl], ...signed(sig)], false);
}

/** GET of a stored message (Mailgun's Messages API): the same fields as JSON. */
export function mailgunStoredJson(env: ReceivedEnvelope, mail: ParsedMail, recipient: string, messageUrl: string): Record<string, unknown> {
  const out: Record<string, unknown> = { domain: env.domain };
  for (const [k, v] of parsedFields(env, mail, recipient)) if (typeof v === "string") out[k] = k === "message-headers" ? JSON.parse(v) : k === "content-id-map" ? JSON.parse(v) : v;
  out.attachments = mail.attachments.map((a, i) => ({ url: `${messageUrl}/attachments/${i}`, "content-type": a.contentType, name: a.filename, size: a.data.length }));
  return out;
}

// Transmission → SendRequest envelopes: one envelope per recipient, rendered with that recipient's
// data (transmission metadata < transmission substitution_data < recipient metadata < recipient
// substitution_data, as SparkPost documents). CC/BCC recipients (address.header_to) get their own
// copy too, showing header_to and the CC header; see docs/api/sparkpost.md.
import type { Address, Attachment, SendEnvelope } from "../../core/model.ts";
import { parseAddress, parseAddressList } from "../../core/address/address.ts";
import { badFormat, missingField } from "./errors.ts";
import type { Json, RcptError, Transmission, TxInline, TxRecipient } from "./model.ts";
import { compileTemplate, TemplateError, type Template, type TemplateMode } from "./substitution.ts";

export interface TransmissionPlan {
  from: Address;
  replyTo?: Address[];
  attachments: Attachment[];
  /** One per recipient, each with that recipient's tags. */
  envelopes: SendEnvelope[];
  /** Recipients that got an envelope (CC/BCC ones included). */
  accepted: number;
  /** Recipients whose content could not be rendered, reported as rcpt_to_errors. */
  rcptErrors: RcptError[];
}

/** Where the content comes from once template_id is resolved: inline parts or a raw message. */
export type ResolvedContent = { kind: "inline"; inline: TxInline } | { kind: "raw"; raw: string };

interface Parts {
  subject: Template; fromEmail: Template; fromName?: Template; text?: Template; html?: Template; amp?: Template;
  headers: [string, Template][];
  /** email_rfc822 split at its first blank line: substitution in the head must not add lines. */
  raw?: { head: Template; body: Template; fields: number };
}

/** Fields in a raw message's header block (continuation lines belong to the field above). */
const headerFieldCount = (raw: string) => (raw.split(/\r?\n\r?\n/, 1)[0] ?? "").split(/\r?\n/).filter((l) => l !== "" && !/^[ \t]/.test(l)).length;

const STATIC = (source: string): Template => ({ isStatic: true, render: () => source });

function compilePart(source: string, mode: TemplateMode, field: string, substitute: boolean): Template {
  if (!substitute) return STATIC(source);
  try {
    return compileTemplate(source, mode);
  } catch (e) {
    if (e instanceof TemplateError) throw badFormat(`${field}: substitution syntax error: ${e.message}`);
    throw e;
  }
}

function compileParts(content: ResolvedContent, substitute: boolean): Parts {
  if (content.kind === "raw") {
    // The head and body are rendered apart: a value ending in a blank line must not move headers into the body.
    const m = /\r?\n\r?\n/.exec(content.raw);
    const head = m ? content.raw.slice(0, m.index) : content.raw;
    const body = m ? content.raw.slice(m.index + m[0].length) : "";
    return { subject: STATIC(""), fromEmail: STATIC(""), headers: [], raw: { head: compilePart(head, "text", "content.email_rfc822", substitute),
      body: compilePart(body, "text", "content.email_rfc822", substitute), fields: headerFieldCount(head) } };
  }
  const c = content.inline;
  const opt = (s: string | undefined, mode: TemplateMode, field: string) => (s === undefined ? undefined : compilePart(s, mode, field, substitute));
  return {
    subject: compilePart(c.subject, "header", "content.subject", substitute),
    fromEmail: compilePart(c.from.email, "header", "content.from.email", substitute),
    fromName: opt(c.from.name, "header", "content.from.name"),
    text: opt(c.text, "text", "content.text"), html: opt(c.html, "html", "content.html"), amp: opt(c.amp, "amp", "content.amp_html"),
    headers: Object.entries(c.headers).filter(([k]) => k.toLowerCase() !== "cc").map(([k, v]) => [k, compilePart(v, "header", `content.headers.${k}`, substitute)]),
  };
}

/** The data one recipient's content is rendered with, reserved variables last (they win). */
function dataFor(tx: Transmission, r: TxRecipient): Json {
  const address = { email: r.address.email, name: r.address.name ?? "" };
  return { ...tx.metadata, ...tx.substitutionData, ...r.metadata, ...r.substitutionData, address, email: r.address.email };
}

/** Metadata is free JSON in SparkPost; events carry strings, so objects travel as JSON text. */
function metadataFor(tx: Transmission, r: TxRecipient): Record<string, string> {
  const merged = { ...tx.metadata, ...r.metadata };
  return Object.fromEntries(Object.entries(merged).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]));
}

function readAddress(text: string, field: string): Address {
  const parsed = parseAddress(text, { shouldCheckSyntax: false });
  if (!parsed) throw badFormat(`${field} is not a valid email address: ${text}`);
  return { email: parsed.email, ...(parsed.name ? { name: parsed.name } : {}) };
}

/** The header's unfolded value in a raw RFC 5322 message (first occurrence), if present. */
export function rawHeader(raw: string, name: string): string | undefined {
  const head = (raw.split(/\r?\n\r?\n/, 1)[0] ?? "").replace(/\r?\n[ \t]+/g, " ");
  const re = new RegExp(`^${name}[ \\t]*:[ \\t]*(.*)$`, "im");
  return re.exec(head)?.[1]?.trim();
}

function render(t: Template | undefined, data: Json, maxOutput: number): string | undefined {
  return t?.render(data, { maxOutput });
}

function renderEnvelope(parts: Parts, tx: Transmission, r: TxRecipient, maxOutput: number): { envelope: SendEnvelope; from: Address } {
  const data = dataFor(tx, r);
  const base = { to: [{ email: r.address.email, ...(r.address.name ? { name: r.address.name } : {}) }], metadata: metadataFor(tx, r),
    path: `recipients.${r.index}`, ...(tx.options.startTime ? { sendAt: tx.options.startTime } : {}) };
  if (parts.raw) {
    const head = render(parts.raw.head, data, maxOutput)!;
    if (/\r?\n\r?\n/.test(head) || headerFieldCount(head) !== parts.raw.fields) {
      throw badFormat(`recipients[${r.index}]: substitution data must not add header lines to content.email_rfc822`);
    }
    const raw = `${head}\r\n\r\n${render(parts.raw.body, data, maxOutput)!}`;
    const fromHeader = rawHeader(raw, "From");
    if (!fromHeader) throw missingField("content.email_rfc822 needs a From header");
    return { envelope: { ...base, subject: rawHeader(raw, "Subject") ?? "", raw: new TextEncoder().encode(raw) }, from: readAddress(fromHeader, "content.email_rfc822 From") };
  }
  const name = render(parts.fromName, data, maxOutput);
  const from = { email: render(parts.fromEmail, data, maxOutput)!.trim(), ...(name ? { name } : {}) };
  const headers = Object.fromEntries(parts.headers.map(([k, t]) => [k, t.render(data, { maxOutput })]));
  return {
    from,
    envelope: { ...base, subject: render(parts.subject, data, maxOutput)!, text: render(parts.text, data, maxOutput),
      html: render(parts.html, data, maxOutput), amp: render(parts.amp, data, maxOutput), ...(parts.headers.length ? { headers } : {}) },
  };
}

function decodeFiles(c: TxInline): Attachment[] {
  const files = [...c.attachments.map((f) => ({ f, inline: false })), ...c.inlineImages.map((f) => ({ f, inline: true }))];
  return files.map(({ f, inline }) => {
    if (/[\r\n"]/.test(f.name) || /[\r\n]/.test(f.type)) throw badFormat(`attachment ${JSON.stringify(f.name)}: name and type must be single-line`);
    return { filename: f.name, contentType: f.type, content: new Uint8Array(Buffer.from(f.data, "base64")),
      disposition: inline ? "inline" : "attachment", ...(inline ? { contentId: f.name } : {}) };
  });
}

interface PlanState {
  parts: Parts;
  tx: Transmission;
  maxOutput: number;
  envelopes: SendEnvelope[];
  rcptErrors: RcptError[];
  from?: Address;
  accepted: number;
}

/** Renders one recipient's envelope and records it; a substitution failure becomes its rcpt_to_error. */
function addEnvelope(state: PlanState, r: TxRecipient, shape: (e: SendEnvelope) => SendEnvelope): void {
  try {
    const built = renderEnvelope(state.parts, state.tx, r, state.maxOutput);
    const envelope = shape(built.envelope);
    state.from ??= built.from;
    // `from` may hold substitutions: an envelope whose sender renders differently carries its own.
    if (built.from.email !== state.from.email || built.from.name !== state.from.name) envelope.from = built.from;
    if (r.tags.length) envelope.tags = r.tags;
    state.envelopes.push(envelope);
    state.accepted++;
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    state.rcptErrors.push({ message: "substitution error", code: "1300", description: `recipients[${r.index}]: ${e.message}` });
  }
}

/** A shown-only address list (header_to, the CC header); anything unparseable (a line break...) is refused. */
function displayList(text: string | undefined, field: string): Address[] {
  const list = parseAddressList(text ?? "");
  if (list.unparseable.length) throw badFormat(`${field} is not a valid address list: ${list.unparseable[0]!.replace(/[\r\n]+/g, " ")}`);
  return list.parsed.map((a) => ({ email: a.email, ...(a.name ? { name: a.name } : {}) }));
}

/**
 * How one recipient's own copy is addressed. A header_to recipient (the client's cc/bcc sugar) is
 * delivered as Cc when the CC header lists it, else as Bcc, and its To header shows header_to; every
 * copy shows the CC header. Display lists are never delivered to (SparkPost mails only `recipients`).
 */
function addressing(r: TxRecipient, ccShown: Address[]): (e: SendEnvelope) => SendEnvelope {
  const self = r.address.email.toLowerCase();
  const displayCc = ccShown.length ? { displayCc: ccShown } : {};
  if (!r.address.headerTo) return (e) => ({ ...e, ...displayCc });
  const displayTo = displayList(r.address.headerTo, `recipients[${r.index}].address.header_to`);
  const kind = displayTo.some((a) => a.email.toLowerCase() === self) ? "to" : ccShown.some((a) => a.email.toLowerCase() === self) ? "cc" : "bcc";
  return (e) => ({ ...e, to: [], [kind]: e.to, displayTo, ...displayCc });
}

/** Renders every recipient's own envelope (SparkPost generates one message per recipient). */
export function planTransmission(tx: Transmission, content: ResolvedContent, maxOutput: number): TransmissionPlan {
  const state: PlanState = { parts: compileParts(content, tx.options.performSubstitutions), tx, maxOutput, envelopes: [], rcptErrors: [], accepted: 0 };
  const inline = content.kind === "raw" ? undefined : content.inline;
  // A raw message carries its own To/Cc headers: header_to and the CC header apply to inline content only.
  const ccHeader = inline ? Object.entries(inline.headers).find(([k]) => k.toLowerCase() === "cc")?.[1] : undefined;
  const ccShown = displayList(ccHeader, "content.headers.CC");
  for (const r of tx.recipients) addEnvelope(state, r, inline ? addressing(r, ccShown) : (e) => e);
  return {
    from: state.from ?? { email: "" }, replyTo: inline?.replyTo ? replyToAddresses(inline.replyTo, tx) : undefined,
    attachments: inline ? decodeFiles(inline) : [], envelopes: state.envelopes, accepted: state.accepted, rcptErrors: state.rcptErrors,
  };
}

/** reply_to is one value per request in postern, so it is rendered with transmission-level data only. */
function replyToAddresses(replyTo: string, tx: Transmission): Address[] {
  const text = tx.options.performSubstitutions && replyTo.includes("{{")
    ? compilePart(replyTo, "header", "content.reply_to", true).render({ ...tx.metadata, ...tx.substitutionData })
    : replyTo;
  const list = parseAddressList(text);
  if (list.unparseable.length || !list.parsed.length) throw badFormat(`content.reply_to is not a valid address list: ${text}`);
  return list.parsed.map((a) => ({ email: a.email, ...(a.name ? { name: a.name } : {}) }));
}

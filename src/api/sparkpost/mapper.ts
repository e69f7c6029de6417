// Transmission → SendRequest envelopes: one envelope per recipient, rendered with that recipient's
// data (transmission metadata < transmission substitution_data < recipient metadata < recipient
// substitution_data, as SparkPost documents). CC/BCC recipients (address.header_to) join the
// envelope of the primary recipient their header_to names; see docs/api/sparkpost.md.
import type { Address, Attachment, SendEnvelope } from "../../core/model.ts";
import { parseAddress, parseAddressList } from "../../validation/address.ts";
import { badFormat, missingField } from "./errors.ts";
import type { Json, RcptError, Transmission, TxInline, TxRecipient } from "./model.ts";
import { compileTemplate, TemplateError, type Template, type TemplateMode } from "./substitution.ts";

export interface EnvelopeGroup { tags: string[]; envelopes: SendEnvelope[] }

export interface TransmissionPlan {
  from: Address;
  replyTo?: Address[];
  attachments: Attachment[];
  groups: EnvelopeGroup[];
  /** Recipients that got an envelope (merged CC/BCC recipients included). */
  accepted: number;
  /** Recipients whose content could not be rendered, reported as rcpt_to_errors. */
  rcptErrors: RcptError[];
}

/** Where the content comes from once template_id is resolved: inline parts or a raw message. */
export type ResolvedContent = { kind: "inline"; inline: TxInline } | { kind: "raw"; raw: string };

interface Parts {
  subject: Template; fromEmail: Template; fromName?: Template; text?: Template; html?: Template; amp?: Template;
  headers: [string, Template][]; raw?: Template;
}

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
  if (content.kind === "raw") return { subject: STATIC(""), fromEmail: STATIC(""), headers: [], raw: compilePart(content.raw, "text", "content.email_rfc822", substitute) };
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
  const re = new RegExp(`^${name}:[ \\t]*(.*)$`, "im");
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
    const raw = render(parts.raw, data, maxOutput)!;
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

const hasOwnData = (r: TxRecipient) =>
  r.tags.length > 0 || Object.keys(r.metadata).length > 0 || Object.keys(r.substitutionData).length > 0;

/** Groups envelopes by tag set: SendRequest carries one tag list. */
function groupByTags(items: { tags: string[]; envelope: SendEnvelope }[]): EnvelopeGroup[] {
  const groups = new Map<string, EnvelopeGroup>();
  for (const { tags, envelope } of items) {
    const key = JSON.stringify([...tags].sort());
    const g = groups.get(key) ?? { tags, envelopes: [] };
    g.envelopes.push(envelope);
    groups.set(key, g);
  }
  return [...groups.values()];
}

interface PlanState {
  parts: Parts;
  tx: Transmission;
  maxOutput: number;
  items: { tags: string[]; envelope: SendEnvelope }[];
  rcptErrors: RcptError[];
  from?: Address;
  accepted: number;
}

/** Renders one recipient's envelope and records it; a substitution failure becomes its rcpt_to_error. */
function addEnvelope(state: PlanState, r: TxRecipient, shape: (e: SendEnvelope) => SendEnvelope): SendEnvelope | null {
  try {
    const built = renderEnvelope(state.parts, state.tx, r, state.maxOutput);
    const envelope = shape(built.envelope);
    state.from ??= built.from;
    // `from` may hold substitutions: an envelope whose sender renders differently carries its own.
    if (built.from.email !== state.from.email || built.from.name !== state.from.name) envelope.from = built.from;
    state.items.push({ tags: r.tags, envelope });
    state.accepted++;
    return envelope;
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    state.rcptErrors.push({ message: "substitution error", code: "1300", description: `recipients[${r.index}]: ${e.message}` });
    return null;
  }
}

const toBcc = (e: SendEnvelope): SendEnvelope => ({ ...e, to: [], bcc: e.to });
const headerToTarget = (r: TxRecipient) => parseAddressList(r.address.headerTo ?? "").parsed[0]?.email.toLowerCase();

/** Renders every recipient's envelope; CC/BCC recipients are folded into their primary's envelope. */
export function planTransmission(tx: Transmission, content: ResolvedContent, maxOutput: number): TransmissionPlan {
  const state: PlanState = { parts: compileParts(content, tx.options.performSubstitutions), tx, maxOutput, items: [], rcptErrors: [], accepted: 0 };
  const isRaw = content.kind === "raw";
  const ccHeader = isRaw ? undefined : Object.entries(content.inline.headers).find(([k]) => k.toLowerCase() === "cc")?.[1];
  const ccShown = new Set(parseAddressList(ccHeader ?? "").parsed.map((a) => a.email.toLowerCase()));
  const primaries = new Map<string, SendEnvelope>();
  const followers: TxRecipient[] = [];
  for (const r of tx.recipients) {
    if (r.address.headerTo && !isRaw) {
      // A raw message has its own To/Cc headers; elsewhere header_to marks a CC/BCC copy.
      if (!hasOwnData(r) && headerToTarget(r)) followers.push(r);
      else addEnvelope(state, r, toBcc);
      continue;
    }
    const envelope = addEnvelope(state, r, (e) => e);
    if (envelope && !isRaw) primaries.set(r.address.email.toLowerCase(), envelope);
  }
  for (const r of followers) {
    const envelope = primaries.get(headerToTarget(r)!);
    if (!envelope) { addEnvelope(state, r, toBcc); continue; } // names nobody here: its own, To-less copy
    const addr = { email: r.address.email };
    if (ccShown.has(r.address.email.toLowerCase())) (envelope.cc ??= []).push(addr);
    else (envelope.bcc ??= []).push(addr);
    state.accepted++;
  }
  const inline = isRaw ? undefined : content.inline;
  return {
    from: state.from ?? { email: "" }, replyTo: inline?.replyTo ? replyToAddresses(inline.replyTo, tx) : undefined,
    attachments: inline ? decodeFiles(inline) : [], groups: groupByTags(state.items), accepted: state.accepted, rcptErrors: state.rcptErrors,
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

// Custom headers from any surface: names and values are checked once here so that no field can
// inject a header (CR/LF) or override the headers postern owns. Message-ID and Sender may be given
// (SendGrid and Mailgun keep them; nodemailer always sets Message-ID): the Message-ID must be a
// well-formed msg-id and is then the message's own; the Sender must be on the sending domain
// (checked in send.ts, which knows the domain).
import type { Issue } from "./errors.ts";

const NAME_RE = /^[!-9;-~]+$/; // RFC 5322 §2.2 field-name: printable ASCII except ":"
const RESERVED = new Set(["from", "to", "cc", "bcc", "subject", "date", "mime-version", "content-type",
  "content-transfer-encoding", "dkim-signature", "return-path", "received"]);
// RFC 5322 §3.6.4 msg-id, the brackets optional on input (some clients leave them out).
const MSG_ID_RE = /^\s*<?([^<>\s@]+@[^<>\s@]+)>?\s*$/;
// A Sender value's address: the <…> that ends it, or the value alone, one word without white space
// or angle brackets. Its @ is then looked for by hand: as one regex each @ of a long word was
// tried as the split, the rest of the word rescanned each time.
const ANGLE_RE = /<([^<>\s]+)>\s*$/;
const BARE_RE = /^\s*([^<>\s]+)\s*$/;

/** The value of header `name` (any case) in `headers`. */
export function headerValue(headers: Record<string, string> | undefined, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(headers ?? {})) if (k.toLowerCase() === wanted) return v;
  return undefined;
}

/** `headers` without header `name` (any case). */
export function withoutHeader(headers: Record<string, string> | undefined, name: string): Record<string, string> | undefined {
  if (!headers) return headers;
  const wanted = name.toLowerCase();
  return Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== wanted));
}

/** The custom Message-ID of `headers` as `<id@host>`, or null when none (or a malformed one) is given. */
export function customMessageId(headers: Record<string, string> | undefined): string | null {
  const v = headerValue(headers, "message-id");
  const m = v === undefined ? null : MSG_ID_RE.exec(v);
  return m ? `<${m[1]}>` : null;
}

/** The address of a Sender header value (`Name <a@b>` or `a@b`), or null when it names none. */
export function senderAddress(value: string): string | null {
  const angled = ANGLE_RE.exec(value)?.[1];
  const word = angled ?? BARE_RE.exec(value)?.[1] ?? "";
  // An @ with something on both sides; a bare address may not quote its local part.
  const at = word.indexOf("@", 1);
  if (at < 0 || at > word.length - 2) return null;
  return angled !== undefined || !word.slice(0, at).includes('"') ? word : null;
}

/** Returns the issues of `headers` (field path `prefix.<name>`); values must not contain CR or LF. */
export function checkHeaders(headers: Record<string, string> | undefined, prefix = "headers"): Issue[] {
  const issues: Issue[] = [];
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    if (!NAME_RE.test(name)) issues.push({ field: `${prefix}.${name}`, message: `invalid header name "${name}"` });
    else if (RESERVED.has(lower)) issues.push({ field: `${prefix}.${name}`, message: `the ${name} header is set by postern and cannot be given here` });
    else if (typeof value !== "string" || /[\r\n]/.test(value)) issues.push({ field: `${prefix}.${name}`, message: `header ${name} must be a single line` });
    else if (lower === "message-id" && !MSG_ID_RE.test(value)) issues.push({ field: `${prefix}.${name}`, message: `the ${name} header must look like <id@host>` });
    else if (lower === "sender" && !senderAddress(value)) issues.push({ field: `${prefix}.${name}`, message: `the ${name} header must be one email address` });
  }
  return issues;
}

/** True when `text` (a subject, display name...) would break out of its header line. */
export const hasLineBreak = (text: string | undefined) => text !== undefined && /[\r\n]/.test(text);

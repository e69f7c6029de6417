// Custom headers from any surface: names and values are checked once here so that no field can
// inject a header (CR/LF) or override the headers postern owns.
import type { Issue } from "./errors.ts";

const NAME_RE = /^[!-9;-~]+$/; // RFC 5322 §2.2 field-name: printable ASCII except ":"
const RESERVED = new Set(["from", "to", "cc", "bcc", "subject", "date", "message-id", "mime-version", "content-type",
  "content-transfer-encoding", "dkim-signature", "return-path", "received", "sender"]);

/** Returns the issues of `headers` (field path `prefix.<name>`); values must not contain CR or LF. */
export function checkHeaders(headers: Record<string, string> | undefined, prefix = "headers"): Issue[] {
  const issues: Issue[] = [];
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (!NAME_RE.test(name)) issues.push({ field: `${prefix}.${name}`, message: `invalid header name "${name}"` });
    else if (RESERVED.has(name.toLowerCase())) issues.push({ field: `${prefix}.${name}`, message: `the ${name} header is set by postern and cannot be given here` });
    else if (typeof value !== "string" || /[\r\n]/.test(value)) issues.push({ field: `${prefix}.${name}`, message: `header ${name} must be a single line` });
  }
  return issues;
}

/** True when `text` (a subject, display name...) would break out of its header line. */
export const hasLineBreak = (text: string | undefined) => text !== undefined && /[\r\n]/.test(text);

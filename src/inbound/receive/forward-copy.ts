// The copy a Mailgun forward("addr@…") sends on. It leaves as mail of the receiving domain: From
// becomes the receiving address (with the original sender's name, "via" the domain) so DMARC
// aligns at the destination, Reply-To keeps the original sender, and the original signatures and
// trace fields are dropped (they would no longer verify). postern's own return path and DKIM
// signature then apply, so bounces of the copy come back as events of that domain.
import { decodeWords } from "postal-mime";
import { fieldText, rawFields } from "../../core/header-block.ts";

const DROP = /^(dkim-signature|arc-[a-z-]+|return-path|delivered-to|received|received-spf|authentication-results|from|sender|x-postern-[a-z-]+)$/i;

/** A display name as a header phrase: quoted when ASCII, one RFC 2047 encoded word otherwise. */
function phrase(name: string): string {
  const clean = name.replace(/["\\\r\n]/g, "").slice(0, 200);
  return /^[\x20-\x7e]*$/.test(clean) ? `"${clean}"` : `=?UTF-8?B?${Buffer.from(clean, "utf8").toString("base64")}?=`;
}

/**
 * The display name of a From value: what comes before its `<`, or between its quotes when `<`
 * follows them. A hand search: as a regex (`^\s*"?([^"<]*?)"?\s*<`) every extra character of a
 * long phrase rescanned the white space after it.
 */
function displayName(from: string): string {
  const rest = from.replace(/^\s*"?/, "");
  const end = rest.search(/["<]/);
  if (end < 0 || (rest[end] === '"' && !/^\s*</.test(rest.slice(end + 1)))) return "";
  return rest.slice(0, end).trim();
}

/** The first word (no white space or angle brackets) with an @ between two of its characters, or "". */
function firstAddress(from: string): string {
  for (const [word] of from.matchAll(/[^<>\s]+/g)) if (word.slice(1, -1).includes("@")) return word;
  return "";
}

export function forwardCopy(raw: Uint8Array, receivingAddress: string, domain: string): Uint8Array {
  // One latin1 character per byte throughout: the fields kept and the body go on byte for byte (raw UTF-8 included).
  const text = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString("latin1");
  const split = /\r?\n\r?\n/.exec(text);
  const bodyStart = split ? split.index + split[0].length : text.length;
  const fields = rawFields(raw);
  const from = fields.find((f) => f.name.toLowerCase() === "from")?.value ?? "";
  const name = fieldText(displayName(from) || firstAddress(from)) || "unknown sender";
  const out = [`From: ${phrase(`${decodeWords(name)} via ${domain}`)} <${receivingAddress}>`];
  if (!fields.some((f) => f.name.toLowerCase() === "reply-to") && from) out.push(`Reply-To: ${from}`);
  for (const f of fields) if (!DROP.test(f.name)) out.push(f.raw);
  return new Uint8Array(Buffer.from(`${out.join("\r\n")}\r\n\r\n${text.slice(bodyStart)}`, "latin1"));
}

// A received message's header block, read two ways. As bytes: each field's own text, one latin1 character per byte,
// so a copy sent on (forward-copy.ts) carries raw UTF-8 (RFC 6532) and legacy 8-bit fields byte for byte. As text
// for people and filters (webhooks' message-headers, route header filters): a field's raw UTF-8 decoded, or, when it
// is not UTF-8, read as windows-1252 as browsers read 8-bit text with no charset.

/** What is read of a message for its header block; past it a field is not looked at. */
const MAX_HEAD_BYTES = 256 * 1024;

export interface RawField {
  name: string;
  /** The field as it came, folding included, with CRLF line ends; one latin1 character per byte. */
  raw: string;
  /** Unfolded (continuation lines joined with a space) and trimmed; one latin1 character per byte. */
  value: string;
}

/** The header block's fields in order; a line that is neither a field nor a continuation is skipped. */
export function rawFields(raw: Uint8Array): RawField[] {
  const text = Buffer.from(raw.buffer, raw.byteOffset, Math.min(raw.byteLength, MAX_HEAD_BYTES)).toString("latin1");
  const end = text.search(/\r?\n\r?\n/);
  const out: RawField[] = [];
  for (const line of (end < 0 ? text : text.slice(0, end)).split(/\r?\n/)) {
    const last = out[out.length - 1];
    if (/^[ \t]/.test(line)) {
      if (last) { last.raw += `\r\n${line}`; last.value += ` ${line.trim()}`; }
      continue;
    }
    const colon = line.indexOf(":");
    if (colon > 0) out.push({ name: line.slice(0, colon).trim(), raw: line, value: line.slice(colon + 1).trim() });
  }
  // A field's value ends trimmed whatever its continuations ended with.
  for (const f of out) f.value = f.value.trim();
  return out;
}

/** The unfolded header block in order, as text. */
export function headerBlock(raw: Uint8Array): [string, string][] {
  return rawFields(raw).map((f) => [fieldText(f.name), fieldText(f.value)]);
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
const windows1252 = new TextDecoder("windows-1252");

/** A latin1-per-byte string as text: its bytes as UTF-8 when they are, else as windows-1252. */
export function fieldText(bytes: string): string {
  if (!/[\x80-\xff]/.test(bytes)) return bytes;
  const b = Buffer.from(bytes, "latin1");
  try { return utf8.decode(b); } catch { return windows1252.decode(b); }
}

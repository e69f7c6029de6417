// Message bodies (messages.content, messages.raw) are stored compressed with zstd (a Bun builtin).
// The body is most of what an accepted message writes: with 1 KB pages a 4 KB body fills four
// overflow pages, written to the log and again by the checkpoint; HTML mail compresses to a third
// or less. Rows written before keep their plain text and bytes, and both forms are read:
// - content: a compressed body is a BLOB, a plain one TEXT (SQLite keeps a BLOB as given whatever
//   the column's affinity);
// - raw: a compressed body starts with zstd's frame magic (28 b5 2f fd). A message (RFC 5322)
//   starts with a header field name, printable ASCII: 0xb5 is never its second byte.

/** Bodies shorter than this are stored as they are: they fit in their row's page anyway. */
const MIN_BYTES = 256;
/** zstd's fast levels: about 10 µs for 4 KB; higher levels buy little on mail. */
const LEVEL = 3;
const MAGIC = [0x28, 0xb5, 0x2f, 0xfd];

const hasMagic = (b: Uint8Array) => b.length >= 4 && MAGIC.every((m, i) => b[i] === m);

/** The compressed form of `data` (`size` bytes; a string is compressed as its UTF-8) when that saves at least an eighth, else null. */
function squeeze(data: Uint8Array | string, size: number): Uint8Array | null {
  if (size < MIN_BYTES) return null;
  const packed = Bun.zstdCompressSync(data, { level: LEVEL });
  return packed.length <= size - size / 8 ? packed : null;
}

/** The `content` column's value for a body. Compressed from the string itself: no UTF-8 copy of each body first. */
export function packContent(text: string | null): string | Uint8Array | null {
  if (text === null || text.length < MIN_BYTES / 4) return text;
  return squeeze(text, Buffer.byteLength(text, "utf8")) ?? text;
}

const utf8 = new TextDecoder();

/** A body back from the `content` column, compressed or not. */
export function unpackContent(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "string") return v;
  return utf8.decode(Bun.zstdDecompressSync(v as Uint8Array));
}

/** The `raw` column's value for a raw message. A message that already starts with the magic (it is
 *  not one) is compressed whatever it saves, so reading it back never mistakes it. */
export function packRaw(raw: Uint8Array | null): Uint8Array | null {
  if (raw === null) return null;
  if (hasMagic(raw)) return Bun.zstdCompressSync(raw, { level: LEVEL });
  return squeeze(raw, raw.length) ?? raw;
}

/** A raw message back from the `raw` column, compressed or not. */
export function unpackRaw(v: unknown): Uint8Array | null {
  if (v === null || v === undefined) return null;
  const bytes = new Uint8Array(v as Uint8Array);
  return hasMagic(bytes) ? new Uint8Array(Bun.zstdDecompressSync(bytes)) : bytes;
}

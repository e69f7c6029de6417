// Finds the report file inside a receiver's report mail and unpacks it: a plain `.xml`/`.json`
// part, or `.gz`/`.zip` (what Gmail, Microsoft and Yahoo send: application/zip, application/gzip,
// application/tlsrpt+gzip). Every step is bounded by MAX_REPORT_BYTES after decompression, so a
// small zip bomb is refused, not inflated.
import { gunzipSync, inflateRawSync } from "node:zlib";
import { MAX_REPORT_BYTES } from "../../core/receiver-report.ts";

export interface ReportFile { name: string; mimeType: string; content: Uint8Array }

const GZIP = [0x1f, 0x8b];
const ZIP = [0x50, 0x4b, 0x03, 0x04];
const startsWith = (b: Uint8Array, sig: number[]) => sig.every((x, i) => b[i] === x);

/** The decompressed text of one report file; throws when it is too large or not a known packing. */
export function unpack(file: ReportFile): string {
  const b = file.content;
  const bytes = startsWith(b, GZIP) ? gunzipSync(b, { maxOutputLength: MAX_REPORT_BYTES })
    : startsWith(b, ZIP) ? firstZipEntry(Buffer.from(b.buffer, b.byteOffset, b.byteLength))
    : b;
  if (bytes.byteLength > MAX_REPORT_BYTES) throw new Error("report larger than 10 MB");
  return new TextDecoder("utf-8", { fatal: false }).decode(bytes);
}

/**
 * The first file of a ZIP archive (APPNOTE.TXT §4.3), found through the central directory since
 * some writers put sizes only in a data descriptor after the data. Stored or deflated only.
 */
function firstZipEntry(zip: Buffer): Uint8Array {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0 || eocd + 22 > zip.length) throw new Error("zip: no end of central directory");
  const dir = zip.readUInt32LE(eocd + 16);
  if (dir + 46 > zip.length || zip.readUInt32LE(dir) !== 0x02014b50) throw new Error("zip: bad central directory");
  const method = zip.readUInt16LE(dir + 10);
  const compressed = zip.readUInt32LE(dir + 20);
  const size = zip.readUInt32LE(dir + 24);
  const local = zip.readUInt32LE(dir + 42);
  if (size > MAX_REPORT_BYTES) throw new Error("report larger than 10 MB");
  if (local + 30 > zip.length || zip.readUInt32LE(local) !== 0x04034b50) throw new Error("zip: bad local header");
  const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
  const data = zip.subarray(start, start + compressed);
  if (data.length !== compressed) throw new Error("zip: truncated entry");
  if (method === 0) return data;
  if (method === 8) return inflateRawSync(data, { maxOutputLength: MAX_REPORT_BYTES });
  throw new Error(`zip: compression method ${method} is not supported`);
}

/** Whether a part looks like a report file of the kind asked for (by type, then by name). */
export function isReportFile(f: { mimeType: string; filename?: string | null }, kind: "dmarc" | "tls"): boolean {
  const type = f.mimeType.toLowerCase();
  const name = (f.filename ?? "").toLowerCase();
  if (/(gzip|zip|x-gzip|x-zip-compressed)$/.test(type) || /\.(gz|zip)$/.test(name)) return true;
  return kind === "dmarc" ? /xml/.test(type) || name.endsWith(".xml") : /json|tlsrpt/.test(type) || name.endsWith(".json");
}

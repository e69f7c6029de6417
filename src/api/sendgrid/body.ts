// Reads a JSON request body within a byte limit, before anything is parsed: SendGrid bodies
// carry base64 attachments, so the limit is the message limit plus base64's third, and
// `Content-Encoding: gzip` (which SendGrid accepts) is inflated under the same limit.
import { gunzipSync } from "node:zlib";
import { AppError, invalid } from "../../core/errors.ts";
import { MSG } from "./model.ts";
import { checkedJsonText } from "../request-guard.ts";

const tooLarge = () => new AppError("too_large", MSG.tooLarge);

/** The largest JSON body that can still hold a message of `maxMessageBytes` (base64 plus slack). */
export const maxBodyBytes = (maxMessageBytes: number) => Math.ceil((maxMessageBytes * 4) / 3) + 2 * 1024 * 1024;

/** The parsed JSON body; 413 over `maxBytes`, 400 when it is not JSON. */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge();
  const gzipped = /^\s*gzip\s*$/i.test(request.headers.get("content-encoding") ?? "");
  // The text the request guard already decoded (api/request-guard.ts), else the bytes read here.
  const checked = gzipped ? undefined : checkedJsonText(request);
  let text: string;
  if (checked) {
    if (checked.bytes > maxBytes) throw tooLarge();
    text = checked.text.trim();
  } else {
    let bytes: Buffer = Buffer.from(await request.arrayBuffer());
    if (bytes.length > maxBytes) throw tooLarge();
    if (gzipped) bytes = inflate(bytes, maxBytes);
    text = bytes.toString("utf8").trim();
  }
  if (!text) throw invalid(MSG.body);
  try {
    return JSON.parse(text);
  } catch {
    throw invalid("The request body is not valid JSON.");
  }
}

function inflate(bytes: Buffer, maxBytes: number): Buffer {
  try {
    return gunzipSync(bytes, { maxOutputLength: maxBytes });
  } catch (err) {
    if ((err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE" || err instanceof RangeError) throw tooLarge();
    throw invalid("The request body is not valid gzip.");
  }
}

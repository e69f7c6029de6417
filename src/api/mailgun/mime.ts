// POST /v3/{domain}/messages.mime: a complete MIME message (`message`, a file part or, from
// mailgun.js given a string, a text field) sent as is to the form's `to`. From and Subject are
// read from the message's own header block; h: and v: options are prepended as header lines.
import PostalMime from "postal-mime";
import type { SendRequest } from "../../core/model.ts";
import { invalid } from "../../core/errors.ts";
import { parseAddress } from "../../core/address/address.ts";
import type { Form } from "./form.ts";
import { MAX_RECIPIENTS } from "./mapper.ts";
import { readOptions, recipientsOf } from "./message-options.ts";

const HEADER_END = /\r?\n\r?\n/;

async function messageBytes(form: Form): Promise<Uint8Array> {
  const value = form.values("message")[0];
  if (value === undefined || value === "") throw invalid("message parameter is missing", "message");
  return typeof value === "string" ? new TextEncoder().encode(value) : new Uint8Array(await value.arrayBuffer());
}

/** Parses only the header block: From and Subject are all the send needs, attachments can be large. */
async function readHeaders(raw: Uint8Array): Promise<{ from: string; name?: string; subject: string }> {
  // One latin1 character per byte, so the header block's end found here is its byte offset too: postal-mime is given
  // the bytes, and reads raw UTF-8 in From and Subject (RFC 6532) as UTF-8.
  const text = Buffer.from(raw.buffer, raw.byteOffset, Math.min(raw.byteLength, 256 * 1024)).toString("latin1");
  const end = HEADER_END.exec(text)?.index ?? text.length;
  const parsed = await PostalMime.parse(Buffer.concat([raw.subarray(0, end), Buffer.from("\r\n\r\n")]));
  const address = parsed.from?.address ?? "";
  if (!address) throw invalid("the MIME message has no From header", "message");
  const from = parseAddress(address, { shouldCheckSyntax: false });
  const oneLine = (t: string | undefined) => (t ?? "").replace(/[\r\n]+/g, " ");
  return { from: from?.email ?? address, name: oneLine(parsed.from?.name) || undefined, subject: oneLine(parsed.subject) };
}

/** Header lines to put in front of the message; the core checks the same map for CR/LF and reserved names. */
function prependHeaders(raw: Uint8Array, headers: Record<string, string>): Uint8Array {
  // Non-ASCII values become RFC 2047 encoded words: raw 8-bit headers need SMTPUTF8 end to end.
  const encode = (v: string) => (/^[\x00-\x7f]*$/.test(v) ? v : `=?UTF-8?B?${Buffer.from(v).toString("base64")}?=`);
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${encode(v)}\r\n`).join("");
  if (!lines) return raw;
  const head = new TextEncoder().encode(lines);
  const out = new Uint8Array(head.byteLength + raw.byteLength);
  out.set(head, 0);
  out.set(raw, head.byteLength);
  return out;
}

/** Maps the messages.mime form to a SendRequest with one raw envelope. */
export async function mimeToSendRequest(domain: string, form: Form, now: number): Promise<SendRequest> {
  const to = recipientsOf(form, "to");
  if (to.length === 0) throw invalid("to parameter is missing", "to");
  if (to.length > MAX_RECIPIENTS) throw invalid(`Too many recipients, max is ${MAX_RECIPIENTS}`, "to");
  const raw = await messageBytes(form);
  const { from, name, subject } = await readHeaders(raw);
  const opts = readOptions(form, now);
  const replyTo = form.withPrefix("h:").find(([k]) => k.toLowerCase() === "reply-to");
  const headers = { ...opts.headersFor(opts.metadata), ...(replyTo && { "Reply-To": replyTo[1] }) };
  return {
    domain, from: name ? { email: from, name } : { email: from }, tags: opts.tags, tracking: opts.tracking,
    isTestMode: opts.isTestMode, ipPool: opts.ipPool, sendingIp: opts.sendingIp, source: "mailgun",
    envelopes: [{ to, subject, raw: prependHeaders(raw, headers), headers, metadata: opts.metadata, sendAt: opts.sendAt, path: "message" }],
  };
}

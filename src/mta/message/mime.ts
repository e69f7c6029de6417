// A lean MIME writer for the common message: text and/or HTML, no attachments, ASCII headers.
// nodemailer's composer costs about 0.5 ms a message (streams, per-header encoders); this writes
// the same structure (RFC 2045/2046: multipart/alternative, quoted-printable UTF-8 parts) in a
// few string operations. Anything else (attachments, AMP, non-ASCII or address-like custom
// headers) goes to nodemailer: `canWriteLean` decides.
import { randomBytes } from "node:crypto";
import type { MessageContent } from "../../core/content.ts";
import type { Address } from "../../core/model.ts";

const MAX_HEADER_CHARS = 900;
const QP_LINE = 76;
const PRINTABLE = /^[\x20-\x7e]*$/;
/** Headers this writer produces itself, or that need address formatting: custom ones of these go to nodemailer. */
const OWN_HEADERS = /^(from|to|cc|bcc|reply-to|sender|subject|date|message-id|mime-version|content-type|content-transfer-encoding|references|in-reply-to)$/i;
const ATOM_PHRASE = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~ ]*$/;

type Body = Pick<MessageContent, "html" | "text" | "headers">;

const isShortAscii = (s: string) => s.length < MAX_HEADER_CHARS && PRINTABLE.test(s);
const addressOk = (a: Address) => isShortAscii(a.email) && (!a.name || isShortAscii(a.name));

/** True when the lean writer produces this message; false sends it to nodemailer. */
export function canWriteLean(c: MessageContent, body: Body, attachmentCount: number): boolean {
  if (attachmentCount > 0 || c.amp || (!body.text && !body.html)) return false;
  if (!isShortAscii(c.subject)) return false;
  const addresses = [c.from, ...(c.displayTo ?? c.to), ...(c.displayCc ?? c.cc ?? []), ...(c.replyTo ?? [])];
  if (!addresses.every(addressOk)) return false;
  // Name and value together: the line is written unfolded, and must stay within 998 characters (RFC 5322 §2.1.1).
  return Object.entries(body.headers ?? {}).every(([k, v]) => /^[\x21-\x39\x3b-\x7e]+$/.test(k) && !OWN_HEADERS.test(k) && isShortAscii(v)
    && k.length + v.length < MAX_HEADER_CHARS);
}

function formatAddress(a: Address): string {
  if (!a.name) return a.email;
  const name = ATOM_PHRASE.test(a.name) ? a.name : `"${a.name.replace(/(["\\])/g, "\\$1")}"`;
  return `${name} <${a.email}>`;
}

/** The quoted-printable form of each byte: itself when printable (not "="), else =XX. */
const QP_TOKEN = Array.from({ length: 256 }, (_, b) => ((b >= 33 && b <= 126 && b !== 61) || b === 32 || b === 9
  ? String.fromCharCode(b) : `=${b.toString(16).toUpperCase().padStart(2, "0")}`));
/** What needs escaping: whole code points (the u flag keeps surrogate pairs together). */
const QP_UNSAFE = /[^\t\x20-\x3c\x3e-\x7e]/gu;
/** The same test without the u flag: whether a line has anything to escape at all. */
const QP_ANY_UNSAFE = /[^\t\x20-\x3c\x3e-\x7e]/;
const encodeChar = (c: string) => {
  const code = c.charCodeAt(0);
  if (code < 0x80) return QP_TOKEN[code]!;
  let out = "";
  for (const b of Buffer.from(c, "utf8")) out += QP_TOKEN[b];
  return out;
};

/** Quoted-printable (RFC 2045 §6.7) of UTF-8 text, CRLF line ends, lines of at most 76 chars. */
export function quotedPrintable(text: string): string {
  const lines = text.split(/\r?\n/);
  const out: string[] = [];
  for (const line of lines) {
    if (line.length <= QP_LINE && /^[\x21-\x3c\x3e-\x7e]*(?:[ \t]+[\x21-\x3c\x3e-\x7e]+)*$/.test(line)) { out.push(line); continue; }
    // Escapes only where needed (a native replace): the run of safe text is copied as it is; a
    // line with nothing to escape is not searched in the slower unicode mode at all.
    let enc = QP_ANY_UNSAFE.test(line) ? line.replace(QP_UNSAFE, encodeChar) : line;
    // Whitespace at the end of a line would be lost in transport (§6.7 rule 3).
    const last = enc.charCodeAt(enc.length - 1);
    if (last === 32 || last === 9) enc = enc.slice(0, -1) + (last === 32 ? "=20" : "=09");
    let at = 0;
    while (enc.length - at > QP_LINE) {
      let cut = at + QP_LINE - 1;
      // Never split an =XX escape ("=" only ever starts one): looked for in the three places a cut
      // can fall into, not with lastIndexOf, which on a long line without one scanned back to its start.
      for (let back = 0; back < 3; back++) if (enc.charCodeAt(cut - back) === 61) { cut -= back; break; }
      out.push(`${enc.slice(at, cut)}=`);
      at = cut;
    }
    out.push(at ? enc.slice(at) : enc);
  }
  return out.join("\r\n");
}

/** RFC 5322 §2.1.1: lines of at most 78 characters where they can be (998 at the very most). */
const FOLD_AT = 78;

/**
 * An address field, folded between addresses (§3.2.2 folding white space) once its line would pass
 * 78 characters: a To of many recipients on one line passed the 998 that §2.1.1 allows.
 */
function addressField(name: string, list: Address[]): string {
  const parts = list.map(formatAddress);
  let out = `${name}: ${parts[0]}`;
  let line = out.length;
  for (let i = 1; i < parts.length; i++) {
    const p = parts[i]!;
    if (line + 2 + p.length > FOLD_AT) { out += `,\r\n ${p}`; line = 1 + p.length; } else { out += `, ${p}`; line += 2 + p.length; }
  }
  return out;
}

const part = (type: string, text: string) =>
  `Content-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${quotedPrintable(text)}\r\n`;

/** The whole message (headers and body) for content `canWriteLean` accepted. */
export function writeLean(c: MessageContent, body: Body, messageIdHeader: string, extraHeaders: Record<string, string>): Buffer {
  const head: string[] = [`From: ${formatAddress(c.from)}`];
  const to = c.displayTo ?? c.to;
  const cc = c.displayCc ?? c.cc;
  if (to.length) head.push(addressField("To", to));
  if (cc?.length) head.push(addressField("Cc", cc));
  if (c.replyTo?.length) head.push(addressField("Reply-To", c.replyTo));
  head.push(`Subject: ${c.subject}`, `Message-ID: ${messageIdHeader}`, `Date: ${new Date(c.date).toUTCString().replace("GMT", "+0000")}`);
  for (const [k, v] of Object.entries({ ...(body.headers ?? {}), ...extraHeaders })) head.push(`${k}: ${v}`);
  head.push("MIME-Version: 1.0");
  let mime: string;
  if (body.text && body.html) {
    const boundary = `--_postern_${randomBytes(12).toString("hex")}`;
    mime = `Content-Type: multipart/alternative; boundary="${boundary}"\r\n\r\n--${boundary}\r\n${part("text/plain", body.text)}`
      + `--${boundary}\r\n${part("text/html", body.html)}--${boundary}--\r\n`;
  } else {
    // A single part ends with its text: a final CRLF would be read as one more line break.
    mime = (body.html ? part("text/html", body.html) : part("text/plain", body.text!)).slice(0, -2);
  }
  return Buffer.from(`${head.join("\r\n")}\r\n${mime}`, "utf8");
}

// Checks of a raw message's header block (Mailgun messages.mime, SparkPost email_rfc822, SMTP
// submission): well-formed field lines and one From (and at most one Sender) on the sending domain,
// so a key can never send, DKIM-signed, as somebody else (RFC 5322 §3.6: From once, Sender once).
import type { Issue } from "./errors.ts";
import { parseAddressList } from "./address/address.ts";

const FIELD_LINE = /^[!-9;-~]+[ \t]*:/; // RFC 5322 §2.2 field-name, then ":" (obsolete WSP allowed)

/** The issues of `raw`'s header block; `isOwn` says whether an address may be used as sender. */
export function checkRawHeaders(raw: Uint8Array, isOwn: (email: string) => boolean, field: string): Issue[] {
  const text = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString("latin1");
  const end = text.search(/\r?\n\r?\n/);
  const head = end >= 0 ? text.slice(0, end) : text;
  const issue = (message: string): Issue[] => [{ field, message }];
  if (/^[ \t]/.test(head)) return issue("the message must not start with a continuation line");
  if (/\r(?!\n)/.test(head)) return issue("the header block has a bare CR");
  const lines = head.split(/\r?\n/);
  const bad = lines.find((l) => !/^[ \t]/.test(l) && !FIELD_LINE.test(l));
  if (bad !== undefined) return issue(`malformed header line: ${bad.slice(0, 60)}`);
  const fields = head.replace(/\r?\n(?=[ \t])/g, "").split(/\r?\n/);
  const valuesOf = (name: string) => fields.filter((l) => new RegExp(`^${name}[ \\t]*:`, "i").test(l)).map((l) => l.slice(l.indexOf(":") + 1).trim());
  const froms = valuesOf("from");
  const senders = valuesOf("sender");
  if (froms.length !== 1) return issue(`the message must have exactly one From header, it has ${froms.length}`);
  if (senders.length > 1) return issue("the message must have at most one Sender header");
  for (const value of [...froms, ...senders]) {
    const list = parseAddressList(value);
    if (list.unparseable.length || !list.parsed.length) return issue(`the header value "${value.slice(0, 60)}" is not a valid address`);
    const foreign = list.parsed.find((a) => !isOwn(a.email));
    if (foreign) return issue(`the from address ${foreign.email} is not one this key may send as`);
  }
  return [];
}

// Parsing of addresses and address lists as people write them (display names, quoted local parts,
// comments, groups, IDN, `,`/`;` separators) into normalised parts. Parsing never throws; the
// RFC 5321 syntax rules a sendable address must also meet live in syntax.ts.
import addrs from "email-addresses";
import { domainToASCII, domainToUnicode } from "node:url";
import { splitAddressList } from "./split.ts";
import { forFallback } from "./fallback-input.ts";
import { checkParsedSyntax, type ParsedAddress } from "./syntax.ts";
import type { Issue } from "../errors.ts";

export type { ParsedAddress } from "./syntax.ts";

export interface ParsedAddressList {
  parsed: ParsedAddress[];
  /** The list entries, trimmed, that could not be parsed (or failed syntax when checked). */
  unparseable: string[];
}

export interface ParseOptions {
  /** Also apply the RFC 5321 rules of checkSyntax, so every parsed address is sendable. Default true. */
  shouldCheckSyntax?: boolean;
}

// RFC 5322 §3.2.3 atext, widened to UTF-8 by RFC 6532 §3.2.
const ATEXT = "A-Za-z0-9!#$%&'*+/=?^_`{|}~\\-\\u0080-\\uFFFF";
const DOT_ATOM_RE = new RegExp(`^[${ATEXT}]+(?:\\.[${ATEXT}]+)*$`);
// Fast paths: strict subsets of what email-addresses accepts, for which its answer is known in
// advance (it is ~15x slower). test/core/address/address.test.ts checks both paths agree.
const ATOM = `[${ATEXT}]+`;
const LABEL = "[A-Za-z0-9\\u0080-\\uFFFF-]+";
const PLAIN_RE = new RegExp(`^(${ATOM}(?:\\.${ATOM})*)@(${LABEL}(?:\\.${LABEL})*)$`);
// White space after a quoted name only: an unquoted one holds its own (SP and HTAB are in its
// class), and a second [ \t]* there made every character of a long name rescan the blanks after it.
const NAMED_RE = new RegExp(`^(?:"([^"\\\\\\r\\n]*)"[ \\t]*|([${ATEXT}. \\t]*))<([^<>]*)>$`);
const ASCII_RE = /^[\x00-\x7F]*$/;
const ODD_SPACE_RE = /[^\S \t]/;

/** Quotes a local part that is not a dot-atom (RFC 5321 §4.1.2 Quoted-string). */
/** The domain of a plain address (after its last @), lower case: a recipient's destination key. */
export const emailDomain = (email: string) => email.slice(email.lastIndexOf("@") + 1).toLowerCase();

export function quoteLocalPart(local: string): string {
  return DOT_ATOM_RE.test(local) ? local : `"${local.replace(/(["\\])/g, "\\$1")}"`;
}

/** Both IDN forms of a domain (UTS #46 via node:url), lower-cased; ascii is "" when invalid. */
export function toDomainForms(domain: string): { asciiDomain: string; unicodeDomain: string } {
  if (ASCII_RE.test(domain)) {
    const lower = domain.toLowerCase();
    if (!lower.includes("xn--")) return { asciiDomain: lower, unicodeDomain: lower };
    const unicode = domainToUnicode(lower);
    return unicode ? { asciiDomain: lower, unicodeDomain: unicode } : { asciiDomain: "", unicodeDomain: lower };
  }
  const ascii = domainToASCII(domain);
  return { asciiDomain: ascii, unicodeDomain: ascii ? domainToUnicode(ascii) : domain.toLowerCase() };
}

function buildParsed(local: string, domain: string, name: string | null | undefined): ParsedAddress {
  const localpart = quoteLocalPart(local);
  const parsed: ParsedAddress = { email: `${localpart}@${domain}`, localpart, domain, ...toDomainForms(domain) };
  if (name) parsed.name = name;
  return parsed;
}

function parseFast(text: string): ParsedAddress | null | undefined {
  // email-addresses folds Unicode white space (NBSP…) like SP; leave such input to it.
  if (ODD_SPACE_RE.test(text)) return undefined;
  const plain = PLAIN_RE.exec(text);
  if (plain) return buildParsed(plain[1] as string, plain[2] as string, null);
  const named = NAMED_RE.exec(text);
  if (!named) return undefined;
  // SP and HTAB are the only white space left at this point (see ODD_SPACE_RE above), so trim() cuts only them;
  // unlike a /[ \t]+$/ it does not rescan a run of blanks from each of its characters.
  const inner = PLAIN_RE.exec((named[3] as string).trim());
  if (!inner) return undefined;
  const name = (named[1] ?? named[2] ?? "").trim().replace(/[ \t]+/g, " ");
  // A bare "." or leading dot in an unquoted phrase is obsolete syntax; leave it to the parser.
  if (named[2] !== undefined && /(^|\s)\./.test(named[2])) return undefined;
  return buildParsed(inner[1] as string, inner[2] as string, name);
}

/** RFC 822 habit: `john@x.com (John Doe)` — a trailing comment stands in for the display name. */
function trailingCommentName(text: string, box: addrs.ParsedMailbox): string | undefined {
  if (!text.endsWith(")")) return undefined;
  const last = box.parts.comments.at(-1)?.tokens.trim();
  if (!last?.startsWith("(") || !last.endsWith(")")) return undefined;
  return last.slice(1, -1).trim().replace(/\s+/g, " ") || undefined;
}

function parseSlow(text: string): ParsedAddress | null {
  let result: ReturnType<typeof addrs.parseOneAddress>;
  try {
    result = addrs.parseOneAddress({
      input: text,
      rfc6532: true,
      simple: false,
      atInDisplayName: true,
      commaInDisplayName: true,
    });
  } catch {
    return null;
  }
  if (!result || result.type !== "mailbox") return null;
  return buildParsed(result.local, result.domain, result.name ?? trailingCommentName(text, result));
}

/** A mailbox, display name included, is at most one header line (RFC 5322 §2.1.1: 998 characters). Past it nothing
 *  is parsed: the fallback parser costs tens of microseconds a character, and more on blanks and nested comments. */
export const MAX_MAILBOX_CHARS = 998;

/** Parses one RFC 5322 mailbox; syntax is not checked. */
function parseMailbox(text: string): ParsedAddress | null {
  if (text.length > MAX_MAILBOX_CHARS) return null;
  // RFC 5322 would read CRLF inside as folding whitespace and find *another* address after it
  // ("a@x\r\nBcc: b@y" parses as b@y): in an API field a line break is never an address.
  if (/[\r\n]/.test(text)) return null;
  const fast = parseFast(text);
  if (fast !== undefined) return fast;
  const tidy = forFallback(text);
  return tidy === null ? null : parseSlow(tidy);
}

/** Parses one address (bare or `Name <addr>`); null when it does not parse or fails syntax. */
export function parseAddress(input: string, options: ParseOptions = {}): ParsedAddress | null {
  if (typeof input !== "string") return null;
  const parsed = parseMailbox(input.trim());
  if (!parsed) return null;
  if (options.shouldCheckSyntax !== false && checkParsedSyntax(parsed).length > 0) return null;
  return parsed;
}

/** Parses a list of addresses separated by `,` or `;`, with groups; never throws. */
export function parseAddressList(input: string, options: ParseOptions = {}): ParsedAddressList {
  const out: ParsedAddressList = { parsed: [], unparseable: [] };
  if (typeof input !== "string") return out;
  // A folded list (CRLF then a space) is one line; any other line break could start a header
  // ("a@x\r\nBcc: b@y" reads as a group named "a@x Bcc"): such input is not a list at all.
  const text = input.replace(/\r?\n(?=[ \t])/g, "");
  if (/[\r\n]/.test(text.trim())) return { parsed: [], unparseable: [input.trim()] };
  for (const chunk of splitAddressList(text)) {
    const parsed = parseAddress(chunk.text, options);
    if (!parsed) {
      out.unparseable.push(chunk.text);
      continue;
    }
    if (chunk.group) parsed.group = chunk.group;
    out.parsed.push(parsed);
  }
  return out;
}

export interface SyntaxOptions {
  /** Dotted path put on every issue, e.g. `personalizations.0.to.1.email`. */
  field?: string;
  /** Accept `Name <addr>` as well as a bare addr-spec. Default false. */
  allowDisplayName?: boolean;
}

/** Problems that make `address` unusable as a recipient; [] when it is fine. */
export function checkSyntax(address: string, options: SyntaxOptions = {}): Issue[] {
  const field = options.field;
  const issue = (message: string): Issue[] => [field === undefined ? { message } : { field, message }];
  if (typeof address !== "string" || address.trim() === "") return issue("email address is empty");
  const text = address.trim();
  if (text.length > MAX_MAILBOX_CHARS) return issue(`is longer than ${MAX_MAILBOX_CHARS} characters`);
  const parsed = parseMailbox(text);
  if (!parsed) return issue("is not a valid email address");
  if (!options.allowDisplayName && (parsed.name !== undefined || text.endsWith(">"))) {
    return issue("must be a bare address without a display name");
  }
  return checkParsedSyntax(parsed, field);
}

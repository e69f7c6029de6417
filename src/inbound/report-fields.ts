// Low-level readers shared by the DSN, ARF and plain-text bounce parsers: header-style field
// groups, "type; value" fields, returned header blocks and SMTP diagnostic text.
// Syntax only: what a report means is decided in dsn.ts, arf.ts and bounce-text.ts.
import { decodeWords } from "postal-mime";

export interface Field {
  /** Lowercased field name. */
  name: string;
  /** Unfolded value, trimmed. */
  value: string;
}

/** An SMTP (or other) diagnostic as a reporting MTA gave it. */
export interface Diagnostic {
  /** Lowercased diagnostic type, e.g. "smtp", "x-postfix"; "text" for heuristic finds. */
  type: string;
  /** The diagnostic on one line; repeated multi-line reply prefixes removed. */
  text: string;
  /** SMTP reply code, when the text starts with one. */
  code?: number;
  /** RFC 3463 code found right after the reply code. */
  enhancedCode?: string;
  /** The reply starts as a multi-line one ("554-delivery error: ..."): Sendmail's Diagnostic-Code holds its first line
   *  alone, and its transcript the rest. */
  continues?: true;
}

/** The headers of the message a report is about (text/rfc822-headers or message/rfc822). */
export interface OriginalMessage {
  /** Message-ID without angle brackets, e.g. "abc@mail.example.com". */
  messageId?: string;
  /** Return-Path address without angle brackets; "" for the null path. */
  returnPath?: string;
  from?: string;
  to?: string;
  /** Decoded (RFC 2047) subject. */
  subject?: string;
  date?: string;
  /** Every header, lowercased name → first value, unfolded (X-Postern-* included). */
  headers: Record<string, string>;
}

/** RFC 3463 §2 status code; not part of a longer dotted number (IPs, versions) nor of a word ("McAfee VirusScan v4.32.0"). */
export const ENHANCED_CODE_RE = /(?<![\w.])([245])\.(\d{1,3})\.(\d{1,3})(?![\d.])/;
const DIAGNOSTIC_PREFIX_RE = /^([2-5]\d\d)(?:[ \-]+|$)(?:([245]\.\d{1,3}\.\d{1,3})(?![\d.])\s*)?/;
const FIELD_NAME_RE = /^[!-9;-~]+$/;
/** Where a reply's text is cut, in a Diagnostic-Code or a notice's line: a reply is a line or a few (RFC 5321
 *  §4.5.3.1.5: 512 octets each), and the classifier reads it whole. */
export const MAX_DIAGNOSTIC_CHARS = 1000;

/**
 * Splits a header-style body into groups separated by blank lines (RFC 3464 §2.1, RFC 5965
 * §3.1 use RFC 5322 header syntax). Folded lines are joined; lines without a colon are dropped.
 */
export function parseFieldGroups(body: string): Field[][] {
  const groups: Field[][] = [];
  let group: Field[] = [];
  for (const line of body.replace(/\r\n?/g, "\n").split("\n")) {
    if (line.trim() === "") {
      if (group.length > 0) groups.push(group);
      group = [];
      continue;
    }
    const last = group[group.length - 1];
    if (/^[ \t]/.test(line) && last) {
      last.value = `${last.value} ${line.trim()}`; // RFC 5322 §2.2.3 unfolding
      continue;
    }
    const colon = line.indexOf(":");
    const name = line.slice(0, Math.max(colon, 0)).trim();
    if (!FIELD_NAME_RE.test(name)) continue; // RFC 5322 §3.6.8 ftext; skips mbox "From " lines
    group.push({ name: name.toLowerCase(), value: line.slice(colon + 1).trim() });
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/** The first value of a field in a group, or undefined. */
export function fieldValue(fields: Field[], name: string): string | undefined {
  return fields.find((field) => field.name === name)?.value || undefined;
}

/** Every value of a (repeatable) field. */
export function fieldValues(fields: Field[], name: string): string[] {
  return fields.filter((field) => field.name === name && field.value !== "").map((field) => field.value);
}

/** Splits "rfc822; user@example.com" (RFC 3464 §2.1.2 address-type ";" value). */
export function splitTyped(value: string): { type: string; value: string } {
  const match = /^([A-Za-z0-9][\w.+-]*)\s*;\s*([\s\S]*)$/.exec(value.trim());
  if (!match) return { type: "", value: value.trim() };
  return { type: (match[1] ?? "").toLowerCase(), value: (match[2] ?? "").trim() };
}

/** An address from a field value: type, angle brackets and trailing comments removed. */
export function cleanAddress(value: string): string {
  const bare = withoutComments(splitTyped(value).value).trim();
  const bracketed = /<([^<>]*)>/.exec(bare);
  return (bracketed ? (bracketed[1] ?? "") : (bare.split(/\s+/)[0] ?? "")).trim();
}

/** A host name from an mta-name field ("dns; mx.example.org. (comment)"), trailing dot removed. */
export function cleanHost(value: string): string {
  const host = withoutComments(splitTyped(value).value).trim().split(/\s+/)[0] ?? "";
  return host.replace(/\.$/, "");
}

/** Each "(comment)" replaced by a space. Only up to the last ")": from each "(" of an unclosed run after it the
 *  pattern would read on to the end (a hostile field of "((((..." took seconds per 100 KB). */
function withoutComments(value: string): string {
  const end = value.lastIndexOf(")") + 1;
  return value.slice(0, end).replace(/\([^)]*\)/g, " ") + value.slice(end);
}

/** Reads "smtp; 550-5.1.1 ..." into type, one-line text, reply code and enhanced code. */
export function parseDiagnostic(value: string, defaultType = ""): Diagnostic {
  const typed = splitTyped(value);
  const type = typed.type || defaultType;
  const text = typed.value.replace(/\s+/g, " ").trim();
  const prefix = DIAGNOSTIC_PREFIX_RE.exec(text);
  if (!prefix) return { type, text: text.slice(0, MAX_DIAGNOSTIC_CHARS) };
  const code = Number(prefix[1]);
  const enhancedCode = prefix[2] ? normalizeEnhancedCode(prefix[2]) : undefined;
  // RFC 5321 §4.2.1: every line of a multi-line reply repeats the code; unfolded, the repeats
  // ("... Please try 550-5.1.1 double-checking ...") are noise.
  const repeats = new RegExp(`\\s${code}[ -](?:[245]\\.\\d{1,3}\\.\\d{1,3}(?![\\d.]))?`, "g");
  const rest = text.slice(prefix[0].length).replace(repeats, " ").replace(/\s+/g, " ").trim();
  const clean = [String(code), enhancedCode, rest].filter(Boolean).join(" ");
  const continues = /^\d{3}-/.test(text);
  return { type, text: clean.slice(0, MAX_DIAGNOSTIC_CHARS), code, ...(enhancedCode ? { enhancedCode } : {}), ...(continues ? { continues: true as const } : {}) };
}

/** "5.01.1" → "5.1.1" (RFC 3463 §2: no leading zeros). */
export function normalizeEnhancedCode(code: string): string {
  return code.split(".").map((part) => String(Number(part))).join(".");
}

/** Reads a returned header block (everything up to the first blank line). */
export function parseHeaderBlock(text: string): OriginalMessage | undefined {
  const block = text.replace(/\r\n?/g, "\n").replace(/^\n+/, "").split("\n\n")[0] ?? "";
  const fields = parseFieldGroups(block)[0] ?? [];
  if (fields.length === 0) return undefined;
  const headers: Record<string, string> = {};
  for (const field of fields) headers[field.name] ??= field.value;
  const messageId = headers["message-id"] ? cleanAddress(headers["message-id"]) : undefined;
  const returnPath = headers["return-path"] !== undefined ? cleanAddress(headers["return-path"]) : undefined;
  const subject = headers["subject"] !== undefined ? decodeWords(headers["subject"]) : undefined;
  return {
    headers,
    ...(messageId ? { messageId } : {}),
    ...(returnPath !== undefined ? { returnPath } : {}),
    ...(headers["from"] ? { from: headers["from"] } : {}),
    ...(headers["to"] ? { to: headers["to"] } : {}),
    ...(subject !== undefined ? { subject } : {}),
    ...(headers["date"] ? { date: headers["date"] } : {}),
  };
}

// A notice's reply lines: the first line with a reply code or an enhanced status code, with the lines that continue
// it (wrapped, multi-line, or words of a bare code on the next line), and where a recipient's reply starts. Pure.
import { ENHANCED_CODE_RE, MAX_DIAGNOSTIC_CHARS, normalizeEnhancedCode, parseDiagnostic, type Diagnostic } from "./report-fields.ts";

/** A 4xx/5xx SMTP reply code in running text (RFC 5321 §4.2: 421-455, 500-556, and 57x, outside that range but sent:
 *  Courier's and qmail's chkuser "571 ...", La Poste's "571 5.7.1 ..."), and "550:" at the start of a line,
 *  as Yahoo's qmail-based MTA writes it ("550: <x@y>: User unknown"). "#550" is Exchange's ("#550 5.1.1 ..."), not a
 *  URL's fragment (Mimecast's "https://community.mimecast.com/docs/DOC-1369#550"). */
const SMTP_CODE_RE = /(?:^|[\s:;('"]|(?<!\S)#)([45][0-5]\d|57\d)(?=[ -]|$)|^([45][0-5]\d):(?=\s)/;
const MAX_CONTINUATION_LINES = 6;
/** A reply code, its status and at most the address with a colon, and nothing more: its words are on the next line. */
const BARE_CODE_RE = /^[45]\d\d(?:[ -][245]\.\d{1,3}\.\d{1,3})?(?:\s+<[^<>\s]{1,320}>:?)?\s*$/;

/** A DSN's Status field alone on its line, and how far below it its Diagnostic-Code may be (the fields between). */
const STATUS_FIELD_RE = /^\s*status:\s*[245]\.\d{1,3}\.\d{1,3}\s*$/i;
const FIELDS_TO_DIAGNOSTIC = 6;

/** The first line with a reply code or enhanced code, plus its indented continuation lines. */
export function findDiagnostic(segment: string): Diagnostic | undefined {
  const lines = segment.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const kind = kindOf(lines, i);
    if (kind === true) return replyOn(lines, i);
    if (kind !== false) i += kind;
  }
  return undefined;
}

/** findDiagnostic(notice.slice(from)) for each `from` asked, the notice's lines read once for all (a hundred recipients
 *  each reading a notice of MBs from their mention to its end cost a hundred times its length). */
export function replyReader(notice: string): (from: number) => Diagnostic | undefined {
  const lines = notice.split("\n");
  const starts: number[] = [];
  for (let i = 0, at = 0; i < lines.length; at += lines[i]!.length + 1, i++) starts.push(at);
  // The line a scan that comes to line i returns on (lines.length: none), each Status field's skip followed.
  const stop: number[] = [];
  stop[lines.length] = lines.length;
  for (let i = lines.length - 1; i >= 0; i--) {
    const kind = kindOf(lines, i);
    stop[i] = kind === true ? i : stop[Math.min(lines.length, i + 1 + (kind === false ? 0 : kind))]!;
  }
  // A reply read once however many recipients come to it (its lines may be long): by its line, and by its text for
  // those that start reading on its own line, each elsewhere.
  const onLine = new Map<number, Diagnostic>();
  const parsed = new Map<string, Diagnostic>();
  const parse = (text: string) => {
    let reply = parsed.get(text);
    if (!reply) parsed.set(text, (reply = parseDiagnostic(text, "smtp")));
    return reply;
  };
  return (from) => {
    let first = 0; // the line `from` falls on
    for (let step = 1 << 30; step > 0; step >>= 1) if (first + step < lines.length && starts[first + step]! <= from) first += step;
    // The slice's first lines have other lines above them (its first one cut at `from`): read as the slice has them.
    // From its fourth line on, a line and the two above it are the notice's own.
    const head = [notice.slice(from, starts[first]! + lines[first]!.length), ...lines.slice(first + 1, first + 9)];
    let i = 0;
    for (; i < 3 && i < head.length; i++) {
      const kind = kindOf(head, i);
      if (kind === true) return replyOn(head, i, parse);
      if (kind !== false) i += kind;
    }
    const at = stop[Math.min(lines.length, first + i)]!;
    if (at >= lines.length) return undefined;
    if (!onLine.has(at)) onLine.set(at, replyOn(lines, at, parse));
    return onLine.get(at);
  };
}

/** What a scan makes of line i: a reply on it (true), a Status field whose Diagnostic-Code is that many lines further
 *  down (those between are passed over), or nothing (false). */
function kindOf(lines: readonly string[], i: number): boolean | number {
  const line = lines[i] ?? "";
  // A DSN's fields pasted as text: its "Status:" line comes before the Diagnostic-Code that holds the reply.
  if (STATUS_FIELD_RE.test(line)) {
    const below = lines.slice(i + 1, i + 1 + FIELDS_TO_DIAGNOSTIC).findIndex((l) => /^\s*diagnostic-code:/i.test(l));
    if (below >= 0) return below;
  }
  const enhanced = ENHANCED_CODE_RE.exec(line);
  // A success line of a quoted transcript ("Out: 250 2.0.0 Ok") says nothing about the failure.
  return SMTP_CODE_RE.test(line) || (enhanced !== null && enhanced[1] !== "2");
}

/** The reply on line i, a line with a reply code or an enhanced code, with the lines that continue it. */
function replyOn(lines: readonly string[], i: number, parse = (text: string) => parseDiagnostic(text, "smtp")): Diagnostic {
  const line = lines[i] ?? "";
  const smtp = SMTP_CODE_RE.exec(line);
  const enhanced = ENHANCED_CODE_RE.exec(line);
  // Wrapped text (Postfix) and multi-line replies (Exim) continue on indented lines.
  const continuation: string[] = [];
  for (let j = i + 1; j < lines.length && continuation.length < MAX_CONTINUATION_LINES; j++) {
    const next = lines[j] ?? "";
    const nextIndent = indentOf(next);
    if (next.trim() === "" || ((nextIndent === 0 || nextIndent < indentOf(line)) && !sameReply(line, next))) break;
    continuation.push(next.trim());
  }
  if (smtp) {
    const codeAt = line.indexOf(smtp[1] ?? smtp[2] ?? "", smtp.index);
    // A reply code with no words ends its line only when the words were wrapped onto the next one: that line
    // continues it, indented or not (a page quoting Postfix's "said: 550 5.7.1" lost the indentation; Exchange
    // Online's "x #550 5.7.1 <a@b>:" then "Recipient address rejected: Invalid recipient ##").
    if (!continuation.length && BARE_CODE_RE.test(line.slice(codeAt)) && lines[i + 1]?.trim()) continuation.push(lines[i + 1]!.trim());
    // Sendmail's transcript puts its local mailer's complaint above the summary it answers with:
    // "mail.local: unknown user: x" then "554 <x>... Service unavailable". The two say one thing.
    const above = i > 0 ? (lines[i - 1] ?? "").trim() : "";
    const local = /^(mail\.local|procmail):\s/i.test(above) ? [above] : [];
    // Office 365 puts the remote's words before its code: "Remote server returned message detected as spam -> 550 ...".
    const said = /remote server returned\s+'?([^'>]{3,200}?)\s*->\s*$/i.exec(line.slice(0, codeAt))?.[1];
    let text = [line.slice(codeAt), ...continuation, ...local, ...(said ? [`(${said})`] : [])].join(" ").trim();
    // Exchange quotes the reply: "Remote Server returned '550 5.4.1 ...'".
    const quote = line[codeAt - 1];
    if ((quote === "'" || quote === '"') && text.endsWith(quote)) text = text.slice(0, -1);
    return parse(text);
  }
  // A bare "<host #5.1.1>" line (Exchange) follows its explanation; keep the two together. Exchange 2003 puts its
  // "If that fails, contact your administrator." between them: the line above that is the explanation.
  const above = (k: number) => (k >= 0 ? (lines[k] ?? "").trim() : "");
  const previous = i > 1 ? (/^if that fails, contact your administrator/i.test(above(i - 1)) ? `${above(i - 2)} ${above(i - 1)}` : above(i - 1)) : "";
  const text = collapsed([previous, line.trim(), ...continuation].filter(Boolean).join(" "), MAX_DIAGNOSTIC_CHARS);
  return { type: "text", text, enhancedCode: normalizeEnhancedCode(enhanced?.[0] ?? "") };
}

/** text.replace(/\s+/g, " ").slice(0, n), reading only as far into a long text as those n characters need. */
function collapsed(text: string, n: number): string {
  for (let read = 4 * n; ; read *= 4) {
    // Spaces cut at the end of what was read make one space, as they would with the rest: this is the whole's start.
    const start = text.slice(0, read).replace(/\s+/g, " ");
    if (start.length >= n || read >= text.length) return start.slice(0, n);
  }
}

/** Where a mention's reply starts: its line's start when a reply code comes before the address on that line
 *  (Sendmail's "554 <x>... Remote protocol error"), else the mention itself. Otherwise the code of the next line
 *  would be read, another host's failure. */
export function lineStartWithCode(notice: string, at: number): number {
  const start = lineStartNear(notice, at, 200);
  return start !== undefined && SMTP_CODE_RE.test(notice.slice(start, at)) ? start : at;
}

/** A mention inside a reply's own words ("554 delivery error: dd Sorry your message to y@x cannot be delivered", an
 *  alias's forwarded address): it goes on with that reply rather than starting another recipient's. Sendmail 5's
 *  "554 <x>... Service unavailable" has no words between its code and the address, and starts its own. */
export function isWithinReply(notice: string, at: number): boolean {
  const start = lineStartNear(notice, at, 400);
  if (start === undefined) return false;
  const code = SMTP_CODE_RE.exec(notice.slice(start, at));
  return code !== null && /[a-z]{2,}\W+[a-z]{2,}/i.test(notice.slice(start + code.index + code[0].length, at));
}

/** Where the line holding `at` starts, when at most `max` characters before it: a longer line is not read back to its
 *  start (from each of a thousand mentions on a line of MBs). */
function lineStartNear(notice: string, at: number, max: number): number | undefined {
  const from = Math.max(0, at - max - 1);
  const start = from + notice.slice(from, at).lastIndexOf("\n") + 1;
  return at - start <= max ? start : undefined;
}

/** A multi-line reply's next line (RFC 5321 §4.2.1: "554-No SMTP service" after "554-gmx.net ... Service not
 *  available"), where a page or a relay dropped the indentation. */
function sameReply(line: string, next: string): boolean {
  const code = /(?:^|\s)([45]\d\d)-/.exec(line)?.[1];
  return code !== undefined && next.trimStart().startsWith(code) && /^[ -]/.test(next.trimStart().slice(3));
}

function indentOf(line: string): number {
  return /^[ \t]*/.exec(line)?.[0].length ?? 0;
}

/** A notice's lines as a transcript's replies, "<<< " gone; a line wrapped by whatever carried the report goes on
 *  indented below, and is joined back first. */
export function transcriptOf(notice: string): string[] {
  return notice.replace(/\n[ \t]+/g, " ").split("\n").map((line) => line.replace(/^\s*<<<\s*/, "").trim());
}

/**
 * The whole of a multi-line reply whose first line alone is in a report's Diagnostic-Code, from the transcript in its
 * text (transcriptOf: "<<< 554-delivery error: dd Sorry your message to x cannot", "<<< 554-be delivered. ...", "<<< 554
 * [#102]."), as Sendmail writes them; undefined when the text does not hold that first line.
 */
export function wholeReply(first: Diagnostic, lines: readonly string[]): Diagnostic | undefined {
  const words = first.text.split(" ").slice(first.enhancedCode ? 2 : 1).join(" ").slice(0, 40);
  const opening = `${first.code}-`; // made once: per line, for each of a report's recipients, it was most of the cost
  const start = lines.findIndex((line) => line.startsWith(opening) && line.includes(words));
  if (start < 0) return undefined;
  const reply: string[] = [];
  for (const line of lines.slice(start, start + MAX_CONTINUATION_LINES * 4)) {
    if (!line.startsWith(`${first.code}-`) && !line.startsWith(`${first.code} `)) break;
    reply.push(line);
    // The transcript's reply, when it says more than the report's field (which may already hold all its lines).
    const whole = line.startsWith(`${first.code} `) ? parseDiagnostic(`${first.type}; ${reply.join(" ")}`) : undefined;
    if (whole) return whole.text.length > first.text.length ? whole : undefined;
  }
  return undefined;
}

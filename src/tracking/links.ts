// Finds what send-time tracking may rewrite: <a href> values in HTML (as offsets into the source, so
// a message is scanned once and only signed per recipient), the </body> position, and bare http(s)
// URLs in text parts. Builds no URLs and signs nothing; rewrite.ts does that.

/** One <a href="..."> value: [start, end) covers the value only, without its quotes. */
export interface AnchorHref {
  start: number;
  end: number;
  /** Unquoted values (`href=https://x`) need quotes added when replaced. */
  isUnquoted: boolean;
  /** The URL a browser follows: entities decoded, ASCII whitespace removed (WHATWG URL parsing). */
  url: string;
  /** The sender opted this link out (SendGrid `clicktracking=off`, or `data-postern-notrack`). */
  isOptedOut: boolean;
}

export interface HtmlScan {
  anchors: AnchorHref[];
  /** Offset of the `<` of the last `</body>` (or `</html>` when there is no `</body>`), else -1. */
  closeAt: number;
}

/** A bare URL in a text part: [start, end) in the text. */
export interface TextLink {
  start: number;
  end: number;
  url: string;
}

/** Raw text and escapable raw text elements (HTML §13.1.2): an `<a` inside them is not a link. */
const RAW_TEXT_TAGS = new Set(["script", "style", "textarea", "title", "xmp"]);
const URL_NOISE_RE = /[\t\n\r]/;
const URL_NOISE_GLOBAL_RE = /[\t\n\r]/g;
/** Longer links stay untracked: the signed token would outgrow what HTTP servers take in a request line. */
const MAX_TRACKED_URL_CHARS = 4096;
const HTTP_URL_RE = /^https?:\/\//i;
/** A sender's own honeypot (`…/hclick`) must not be redirected through ours (service spec, S2 honeypot). */
const HONEYPOT_PATH_RE = /\/hclick(?![A-Za-z0-9_-])/i;
const TEXT_URL_RE = /\bhttps?:\/\/[^\s<>"'`]+/gi;
const TRAILING_PUNCTUATION = new Set([".", ",", ";", ":", "!", "?", "'", '"', "*"]);
const BRACKET_PAIRS: Record<string, string> = { ")": "(", "]": "[", "}": "{" };
const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };
/** Longest reference looked at, `&` to `;` exclusive (`&#x10FFFF` is 9). */
const MAX_ENTITY_CHARS = 9;
const HEX_DIGITS_RE = /^[0-9a-fA-F]+$/;
const DEC_DIGITS_RE = /^[0-9]+$/;

interface Attribute {
  name: string;
  valueStart: number;
  valueEnd: number;
  quote: "" | '"' | "'";
  hasValue: boolean;
}

/** Scans HTML once with a small tokenizer (comments, raw-text elements and quoting per HTML §13.2.5). */
export function scanHtml(html: string): HtmlScan {
  const anchors: AnchorHref[] = [];
  let bodyCloseAt = -1;
  let htmlCloseAt = -1;
  let i = html.indexOf("<");
  while (i !== -1) {
    const c = html.charCodeAt(i + 1);
    let next: number;
    if (c === 0x21 /* ! */ || c === 0x3f /* ? */) {
      next = skipDeclaration(html, i);
    } else if (c === 0x2f /* / */ && isAsciiLetter(html.charCodeAt(i + 2))) {
      const name = readTagName(html, i + 2);
      if (name === "body") bodyCloseAt = i;
      else if (name === "html") htmlCloseAt = i;
      next = indexOrEnd(html, ">", i + 2) + 1;
    } else if (isAsciiLetter(c)) {
      next = scanStartTag(html, i, anchors);
    } else {
      next = i + 1;
    }
    i = html.indexOf("<", next);
  }
  return { anchors, closeAt: bodyCloseAt !== -1 ? bodyCloseAt : htmlCloseAt };
}

/** Comments, `<!DOCTYPE>`, `<?…>` and CDATA; returns the offset after the construct. */
function skipDeclaration(html: string, i: number): number {
  if (!html.startsWith("<!--", i)) return indexOrEnd(html, ">", i) + 1;
  // Outlook conditional comments (`<!--[if mso]>…<![endif]-->`) hold markup that Outlook renders,
  // so their links are scanned like any other; only the opener is skipped.
  if (html.startsWith("[if", i + 4)) return indexOrEnd(html, "]>", i) + 2;
  // `<!-->` and `<!--->` are complete empty comments (HTML tokenizer: abrupt-closing-of-empty-comment).
  if (html.startsWith(">", i + 4)) return i + 5;
  if (html.startsWith("->", i + 4)) return i + 6;
  return indexOrEnd(html, "-->", i + 4) + 3;
}

function scanStartTag(html: string, i: number, anchors: AnchorHref[]): number {
  const name = readTagName(html, i + 1);
  const { attributes, end } = readAttributes(html, i + 1 + name.length);
  if (name === "a") {
    const anchor = toAnchor(html, attributes);
    if (anchor) anchors.push(anchor);
  }
  if (!RAW_TEXT_TAGS.has(name)) return end;
  const close = findCloseTag(html, name, end);
  return close === -1 ? html.length : indexOrEnd(html, ">", close) + 1;
}

function toAnchor(html: string, attributes: Attribute[]): AnchorHref | null {
  // The first occurrence of a duplicated attribute wins (HTML tokenizer: duplicate-attribute).
  const href = attributes.find((a) => a.name === "href");
  if (!href?.hasValue) return null;
  const isOptedOut = attributes.some(
    (a) =>
      a.name === "data-postern-notrack" ||
      (a.name === "clicktracking" && html.slice(a.valueStart, a.valueEnd).toLowerCase() === "off"),
  );
  const raw = html.slice(href.valueStart, href.valueEnd);
  return {
    start: href.valueStart,
    end: href.valueEnd,
    isUnquoted: href.quote === "",
    url: cleanUrl(decodeEntities(raw)),
    isOptedOut,
  };
}

/** WHATWG URL parsing strips leading/trailing C0 space and drops tab/newline anywhere. */
function cleanUrl(value: string): string {
  const trimmed = value.trim();
  return URL_NOISE_RE.test(trimmed) ? trimmed.replace(URL_NOISE_GLOBAL_RE, "") : trimmed;
}

/** Attribute list per the HTML tokenizer's attribute states (names end at whitespace, `/`, `>`, `=`). */
function readAttributes(html: string, from: number): { attributes: Attribute[]; end: number } {
  const attributes: Attribute[] = [];
  const n = html.length;
  let p = from;
  while (p < n) {
    const c = html.charCodeAt(p);
    if (c === 0x3e /* > */) return { attributes, end: p + 1 };
    if (isSpace(c) || c === 0x2f /* / */) {
      p++;
      continue;
    }
    const nameStart = p++;
    while (p < n && !isNameEnd(html.charCodeAt(p))) p++;
    const name = html.slice(nameStart, p).toLowerCase();
    const attr: Attribute = { name, valueStart: p, valueEnd: p, quote: "", hasValue: false };
    attributes.push(attr);
    const afterName = skipSpaces(html, p);
    if (html.charCodeAt(afterName) !== 0x3d /* = */) continue;
    p = skipSpaces(html, afterName + 1);
    const q = html[p];
    attr.valueStart = p;
    if (q === '"' || q === "'") {
      attr.quote = q;
      attr.valueStart = p + 1;
      p = indexOrEnd(html, q, p + 1);
      attr.valueEnd = p++;
      attr.hasValue = true;
    } else {
      while (p < n && !isSpace(html.charCodeAt(p)) && html.charCodeAt(p) !== 0x3e) p++;
      attr.valueEnd = p;
      attr.hasValue = p > attr.valueStart;
    }
  }
  return { attributes, end: n };
}

/** True when a link should go through the click redirect: absolute http(s), not ours, not a honeypot. */
export function isTrackableUrl(url: string, publicUrl: string): boolean {
  if (url.length > MAX_TRACKED_URL_CHARS || !HTTP_URL_RE.test(url)) return false;
  const lower = url.toLowerCase();
  const base = publicUrl.toLowerCase();
  if (lower === base || lower.startsWith(base + "/") || lower.startsWith(base + "?")) return false;
  return !HONEYPOT_PATH_RE.test(url);
}

/** True when the HTML already carries a honeypot link, ours or the sender's. */
export function hasHoneypotLink(html: string): boolean {
  return HONEYPOT_PATH_RE.test(html);
}

/** Bare http(s) URLs in plain text, minus trailing sentence punctuation and unbalanced closers. */
export function findTextLinks(text: string): TextLink[] {
  const links: TextLink[] = [];
  for (const m of text.matchAll(TEXT_URL_RE)) {
    const url = trimUrlTail(m[0]);
    if (url.length > "https://".length) links.push({ start: m.index, end: m.index + url.length, url });
  }
  return links;
}

/** The URL without the sentence's punctuation after it, and without closers that open nothing inside it. Linear: the
 *  counts of each bracket are kept as the tail shrinks (a URL ending in 40,000 ")" took 10 s counting them anew). */
function trimUrlTail(candidate: string): string {
  const counts = new Map<string, number>();
  for (const ch of candidate) if (ch in BRACKET_PAIRS || ch === "(" || ch === "[" || ch === "{") counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let end = candidate.length;
  for (;;) {
    while (end > 0 && TRAILING_PUNCTUATION.has(candidate[end - 1]!)) end--;
    const last = candidate[end - 1] ?? "";
    const opener = BRACKET_PAIRS[last];
    // Keep a closer that balances an opener inside the URL (Wikipedia-style `Foo_(bar)`).
    if (opener === undefined || (counts.get(opener) ?? 0) >= (counts.get(last) ?? 0)) return candidate.slice(0, end);
    counts.set(last, counts.get(last)! - 1);
    end--;
  }
}

/** Decodes the character references that appear in URLs; unknown names stay literal as in browsers. */
export function decodeEntities(s: string): string {
  let amp = s.indexOf("&");
  if (amp === -1) return s;
  // A hand loop, not String.replace with a callback: this runs for every link of every message.
  let out = "";
  let pos = 0;
  for (; amp !== -1; amp = s.indexOf("&", amp + 1)) {
    const semi = s.indexOf(";", amp + 2);
    if (semi === -1) break;
    if (semi - amp > MAX_ENTITY_CHARS) continue;
    const decoded = decodeReference(s.slice(amp + 1, semi));
    if (decoded === null) continue;
    out += s.slice(pos, amp) + decoded;
    pos = semi + 1;
    amp = semi;
  }
  return out + s.slice(pos);
}

function decodeReference(ref: string): string | null {
  if (ref[0] !== "#") return NAMED_ENTITIES[ref.toLowerCase()] ?? null;
  const isHex = ref[1] === "x" || ref[1] === "X";
  const digits = ref.slice(isHex ? 2 : 1);
  if (!(isHex ? HEX_DIGITS_RE : DEC_DIGITS_RE).test(digits)) return null;
  const code = parseInt(digits, isHex ? 16 : 10);
  // Out-of-range, NUL and surrogate references become U+FFFD (HTML tokenizer: numeric character reference end state).
  return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : "\ufffd";
}

function readTagName(html: string, from: number): string {
  let p = from;
  while (p < html.length && !isNameEnd(html.charCodeAt(p))) p++;
  return html.slice(from, p).toLowerCase();
}

/** Offset of the `</name` that ends a raw-text element, or -1 (an unclosed <style> eats the rest). */
function findCloseTag(html: string, name: string, from: number): number {
  const re = new RegExp(`</${name}(?=[\\s/>]|$)`, "ig");
  re.lastIndex = from;
  return re.exec(html)?.index ?? -1;
}

function indexOrEnd(html: string, needle: string, from: number): number {
  const at = html.indexOf(needle, from);
  return at === -1 ? html.length : at;
}

function skipSpaces(html: string, from: number): number {
  let p = from;
  while (p < html.length && isSpace(html.charCodeAt(p))) p++;
  return p;
}

const isAsciiLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
const isNameEnd = (c: number) => isSpace(c) || c === 0x2f || c === 0x3e || c === 0x3d;

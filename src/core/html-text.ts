// The text a mail client shows for HTML: an HTML-only bounce, which says the same as its plain-text twin so the
// readers after this one see the same lines; Mailgun's body-plain and SendGrid's text for HTML-only inbound mail; and
// the text part that SendGrid's generate_plain_content and Mailgun's t:text make. Blocks start lines, runs of white
// space are one space (kept as written inside <pre>), each line starts at its first word, entities are decoded, and
// what is never shown (<head>, <style>, <script>, <title>, comments) is left out. Linear time: the input is often a
// stranger's message, so no pattern here can scan past the next "<" and each search position only moves forward.

const HIDDEN = ["head", "style", "script", "title"];
const SKIPPED = [...HIDDEN, "pre"];
/** A run of tags that start or end a block: one line break, as a client shows a paragraph that follows another (an
 *  empty paragraph, "<p>&nbsp;</p>", is the blank line). Each <br> is a line break of its own. */
const BLOCKS = /(?:\s*<\/?(?:p|div|tr|li|ul|ol|h\d|table|tbody|thead|blockquote|hr|center|dl|dt|dd|address)\b[^<>]*>)+\s*/gi;
const NAMED: Record<string, string> = { nbsp: " ", lt: "<", gt: ">", amp: "&", quot: '"', apos: "'", ndash: "-", mdash: "-",
  lsquo: "'", rsquo: "'", ldquo: '"', rdquo: '"', laquo: "«", raquo: "»", hellip: "...", middot: "·", bull: "•", shy: "" };

/** ASCII letters lowered only: a full toLowerCase can change the length ("İ" is two code units lowered), and the
 *  positions found in the lowered copy slice the original. */
export const asciiLower = (text: string) => text.replace(/[A-Z]+/g, (upper) => upper.toLowerCase());

export function htmlToText(html: string): string {
  const lower = asciiLower(html);
  const next = nextSearch(lower);
  const out: string[] = [];
  // Flowed text is read as one piece up to each <pre>, so a hidden element between two paragraphs leaves no gap.
  let flowing = "";
  let at = 0;
  while (at < html.length) {
    const el = next(at);
    flowing += html.slice(at, el ? el.start : html.length);
    if (!el) break;
    if (el.tag === "pre") {
      out.push(flow(flowing), "\n" + decode(html.slice(el.contentStart, el.contentEnd).replace(/<[^<>]*>/g, "")) + "\n");
      flowing = "";
    }
    at = el.resume;
  }
  out.push(flow(flowing));
  return out.join("").replace(/\n{3,}/g, "\n\n").trim();
}

interface Element { tag: string; start: number; contentStart: number; contentEnd: number; resume: number }

/** Finds, from a position that only moves forward, the next element whose content is not flowed text: a hidden one,
 *  <pre>, or a comment. Each tag's next opening is remembered, so the whole input is searched about once per tag. */
function nextSearch(lower: string): (from: number) => Element | null {
  const seen = new Map<string, number>();
  const opening = (tag: string, from: number): number => {
    const known = seen.get(tag);
    if (known !== undefined && (known < 0 || known >= from)) return known;
    let i = lower.indexOf(tag === "!--" ? "<!--" : `<${tag}`, from);
    // "<head" must not match "<header", nor "<pre" "<prefix".
    while (i >= 0 && tag !== "!--" && /[\w-]/.test(lower[i + tag.length + 1] ?? "")) i = lower.indexOf(`<${tag}`, i + 1);
    seen.set(tag, i);
    return i;
  };
  return (from) => {
    let tag = "", start = -1;
    for (const t of [...SKIPPED, "!--"]) {
      const i = opening(t, from);
      if (i >= 0 && (start < 0 || i < start)) { tag = t; start = i; }
    }
    if (start < 0) return null;
    if (tag === "!--") {
      const end = lower.indexOf("-->", start + 4);
      return { tag, start, contentStart: start, contentEnd: start, resume: end < 0 ? lower.length : end + 3 };
    }
    const contentStart = lower.indexOf(">", start) + 1 || lower.length;
    const close = lower.indexOf(`</${tag}`, contentStart);
    const contentEnd = close < 0 ? lower.length : close;
    return { tag, start, contentStart, contentEnd, resume: close < 0 ? lower.length : lower.indexOf(">", close) + 1 || lower.length };
  };
}

/** Flowed HTML: white space collapsed, blocks on lines of their own, cells apart, every other tag dropped. */
function flow(html: string): string {
  const text = html.replace(/[ \t\r\n\f]+/g, " ").replace(BLOCKS, "\n").replace(/<br\b[^<>]*>/gi, "\n").replace(/<\/?t[dh]\b[^<>]*>/gi, " ").replace(/<[^<>]*>/g, "");
  // A decoded &nbsp; or &#9; is white space like any other here, and one run at a time keeps the line-end trim linear.
  return decode(text).replace(/[ \t]+/g, " ").replace(/ ?\n ?/g, "\n");
}

function decode(text: string): string {
  return text.replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z]{2,8});/gi, (whole, name: string) => {
    if (name[0] !== "#") return NAMED[name.toLowerCase()] ?? whole;
    const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  }).replace(/\u00a0/g, " ");
}

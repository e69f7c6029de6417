// Reply and signature stripping for Mailgun's stripped-text / stripped-signature / stripped-html. Heuristics in the
// spirit of Mailgun's talon: the quoted part starts at an attribution line ("On … wrote:"), an Outlook "Original
// Message" or header block, or a run of ">" lines to the end; the signature follows a "-- " line. The input is a
// stranger's message, so each line and each tag is read a bounded number of times (linear time).
import { asciiLower } from "../../core/html-text.ts";

const QUOTE_START = [
  /^\s*On\b.{0,300}\bwrote:\s*$/i,
  /^\s*Le\b.{0,300}\ba écrit\s*:\s*$/i,
  /^\s*Am\b.{0,300}\bschrieb\b.{0,100}:\s*$/i,
  /^\s*-{2,}\s*(Original Message|Forwarded message|Ursprüngliche Nachricht)\s*-{2,}/i,
  /^\s*_{10,}\s*$/,
  /^\s*From:\s.+$/i,
];

export function stripReply(text: string): { text: string; signature: string } {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  let cut = lines.length;
  const quotedToEnd = firstOfQuotedTail(lines);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const twoLine = i + 1 < lines.length ? `${line} ${lines[i + 1]}` : line;
    if (QUOTE_START.some((re) => re.test(line)) || (/^\s*On\b/i.test(line) && /\bwrote:\s*$/i.test(twoLine))) { cut = i; break; }
    if (i >= quotedToEnd && /^\s*>/.test(line)) { cut = i; break; }
  }
  const body = lines.slice(0, cut);
  const sig = body.findIndex((l) => l === "-- " || l === "--");
  const signature = sig >= 0 ? body.slice(sig + 1).join("\n").trim() : "";
  return { text: (sig >= 0 ? body.slice(0, sig) : body).join("\n").trim(), signature };
}

/** Where the run of quoted or empty lines that lasts to the end begins. */
function firstOfQuotedTail(lines: string[]): number {
  let i = lines.length;
  while (i > 0 && /^\s*(>|$)/.test(lines[i - 1]!)) i--;
  return i;
}

/** HTML without quoted blocks (blockquote, Gmail's and Outlook's quote containers). */
export function stripHtmlReply(html: string): string {
  const kept = withoutBlockquotes(html, asciiLower(html));
  const at = containerAt(kept.lower);
  return (at < 0 ? kept.html : kept.html.slice(0, at)).trim();
}

/** Each <blockquote> through the first </blockquote> after it goes; one left open stays, as does what follows it.
 *  The lowered copy is cut alike, so the search after this one need not lower the text again. */
function withoutBlockquotes(html: string, lower: string): { html: string; lower: string } {
  const kept: [number, number][] = [];
  let at = 0;
  for (let open = opening(lower, "blockquote", 0); open >= 0; open = opening(lower, "blockquote", at)) {
    const close = lower.indexOf("</blockquote>", open);
    if (close < 0) break;
    kept.push([at, open]);
    at = close + "</blockquote>".length;
  }
  kept.push([at, html.length]);
  const cut = (text: string) => kept.map(([from, to]) => text.slice(from, to)).join("");
  return { html: cut(html), lower: cut(lower) };
}

const CONTAINER = /class="?gmail_(quote|extra)|id="?(divrplyfwdmsg|appendonsend)/;

/** Where the first <div> whose start tag marks Gmail's or Outlook's quoted part starts in lowered HTML, or -1. A
 *  start tag is read once: a "<div" inside another's unclosed tag has only a part of that tag's text, so it cannot
 *  mark what the whole did not. */
function containerAt(lower: string): number {
  for (let at = lower.indexOf("<div"); at >= 0;) {
    const end = lower.indexOf(">", at);
    if (end < 0) return -1;
    if (CONTAINER.test(lower.slice(at, end))) return at;
    at = lower.indexOf("<div", end);
  }
  return -1;
}

/** The next "<tag" that is the whole tag name ("<blockquote", not "<blockquotes"). */
function opening(lower: string, tag: string, from: number): number {
  let i = lower.indexOf(`<${tag}`, from);
  while (i >= 0 && /\w/.test(lower[i + tag.length + 1] ?? "")) i = lower.indexOf(`<${tag}`, i + 1);
  return i;
}

// What the fallback parser (email-addresses, address.ts) is given. It costs tens of microseconds a character and
// backtracks on shapes nobody writes: a run of 1,000 blanks took 5 ms, a comment left open 75 ms, 1,000 nested "("
// 0.19 s, each for one mailbox of an API field that may hold a thousand. So a run of blanks outside quoted strings is
// one space (RFC 5322 §3.2.2: folding white space there only separates), and a mailbox whose quotes or comments do
// not close, or whose comments nest deeper than people write them, is not a mailbox.

const MAX_COMMENT_DEPTH = 4;

/** `text` with blank runs outside quoted strings made one space; null when a quote or comment does not close, or
 *  comments nest deeper than MAX_COMMENT_DEPTH. */
export function forFallback(text: string): string | null {
  let out = "";
  let depth = 0;
  let quoted = false;
  let runStart = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const blank = c === " " || c === "\t";
    if (blank && !quoted) {
      if (runStart < 0) { runStart = i; out += " "; }
      continue;
    }
    runStart = -1;
    out += c;
    if (c === "\\" && (quoted || depth > 0)) { out += text[++i] ?? ""; continue; }
    if (quoted) { if (c === '"') quoted = false; continue; }
    if (c === '"' && depth === 0) quoted = true;
    else if (c === "(" && ++depth > MAX_COMMENT_DEPTH) return null;
    else if (c === ")" && --depth < 0) return null;
  }
  return quoted || depth !== 0 ? null : out;
}

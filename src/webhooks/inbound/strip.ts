// Reply and signature stripping for Mailgun's stripped-text / stripped-signature / stripped-html,
// and a text version of HTML-only mail. Heuristics in the spirit of Mailgun's talon: the quoted
// part starts at an attribution line ("On … wrote:"), an Outlook "Original Message" or header
// block, or a run of ">" lines; the signature follows a "-- " line.

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
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const twoLine = i + 1 < lines.length ? `${line} ${lines[i + 1]}` : line;
    if (QUOTE_START.some((re) => re.test(line)) || (/^\s*On\b/i.test(line) && /\bwrote:\s*$/i.test(twoLine))) { cut = i; break; }
    if (/^\s*>/.test(line) && lines.slice(i).every((l) => /^\s*(>|$)/.test(l))) { cut = i; break; }
  }
  const body = lines.slice(0, cut);
  const sig = body.findIndex((l) => l === "-- " || l === "--");
  const signature = sig >= 0 ? body.slice(sig + 1).join("\n").trim() : "";
  return { text: (sig >= 0 ? body.slice(0, sig) : body).join("\n").trim(), signature };
}

/** HTML without quoted blocks (blockquote, Gmail's and Outlook's quote containers). */
export function stripHtmlReply(html: string): string {
  return html
    .replace(/<blockquote\b[\s\S]*?<\/blockquote>/gi, "")
    .replace(/<div[^>]*class="?gmail_(quote|extra)[^>]*>[\s\S]*$/i, "")
    .replace(/<div[^>]*id="?(divRplyFwdMsg|appendonsend)[^>]*>[\s\S]*$/i, "")
    .trim();
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style|head)\b[\s\S]*?<\/\1>/gi, "")
    .replace(/<br\s*\/?>/gi, "\n").replace(/<\/(p|div|li|tr|h[1-6])>/gi, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&(#x?[0-9a-f]+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === "#") { const n = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : Number(e.slice(1)); return Number.isFinite(n) && n < 0x110000 ? String.fromCodePoint(n) : m; }
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/[ \t]+\n/g, "\n").replace(/\n{3,}/g, "\n\n").trim();
}

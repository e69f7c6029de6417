// User agents of the independent evaluation: people's current browsers and in-app browsers, and the
// builds scanners are reported to send (stock Windows Chrome, often pinned old; sometimes none).

import type { Rand } from "./rng.ts";

const WIN = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko)";

/** Windows Chrome of a given major, as Chrome's reduced UA string prints it. */
export function windowsChrome(major: number): string {
  return `${WIN} Chrome/${major}.0.0.0 Safari/537.36`;
}

export function windowsEdge(major: number): string {
  return `${WIN} Chrome/${major}.0.0.0 Safari/537.36 Edg/${major}.0.0.0`;
}

/** A person's current desktop browser (auto-updating: Chrome/Edge 134-143, Safari 18-26, Firefox 136-146). */
export function desktopBrowser(rand: Rand): string {
  const major = rand.int(134, 143);
  return rand.weighted<string>([
    [windowsChrome(major), 45],
    [windowsEdge(major), 20],
    [`Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${rand.pick(["18.4", "18.6", "26.0", "26.1"])} Safari/605.1.15`, 20],
    [`Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:${rand.int(136, 146)}.0) Gecko/20100101 Firefox/${rand.int(136, 146)}.0`, 15],
  ]);
}

export function iosSafari(rand: Rand): string {
  const v = rand.pick(["18_5", "18_6_2", "26_0", "26_1"]);
  return `Mozilla/5.0 (iPhone; CPU iPhone OS ${v} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${v.split("_").slice(0, 2).join(".")} Mobile/15E148 Safari/604.1`;
}

/** Android Chrome, or the Gmail/Outlook apps' in-app browser (Chrome WebView marks itself "wv"). */
export function androidBrowser(rand: Rand): string {
  const device = rand.pick(["Pixel 9", "SM-S921B", "SM-A556B", "moto g85 5G"]);
  const major = rand.int(134, 143);
  return rand.chance(0.5)
    ? `Mozilla/5.0 (Linux; Android ${rand.int(14, 16)}; ${device}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Mobile Safari/537.36`
    : `Mozilla/5.0 (Linux; Android ${rand.int(14, 16)}; ${device}; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/${major}.0.0.0 Mobile Safari/537.36`;
}

export function mobileBrowser(rand: Rand): string {
  return rand.chance(0.55) ? iosSafari(rand) : androidBrowser(rand);
}

/** Apple Mail's remote-content fetch under Mail Privacy Protection (Mailgun's and ClickDimensions' examples). */
export const APPLE_MPP_UA = "Mozilla/5.0";
/** Gmail's image proxy (Postmark's tracking docs; many event payloads). */
export const GMAIL_PROXY_UA = "Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)";

/** Crawlers that announce themselves (link checkers, SEO and AI crawlers). */
export function declaredCrawler(rand: Rand): string {
  return rand.pick([
    "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
    "Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)",
    "python-requests/2.32.3",
    "Go-http-client/2.0",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
  ]);
}

// User-agent signatures: self-declared tools and bots, mail proxies and preflights, in match order.
// Pure data. UA is a weak signal for enterprise scanners (they send stock Chrome), so these only
// catch what announces itself, plus the few mail-specific UAs whose meaning depends on the action.

import { getPattern as isbotPattern } from "isbot";

/**
 * - tool / headless / crawler / unfurler / scanner: never a person.
 * - gmail-prefetch: Gmail fetching images at arrival (machine open).
 * - gmail-proxy / yahoo-proxy: image proxy fetch when the person opens (human open).
 * - office-preflight: Office "existence discovery" checks; never a person's click.
 * - outlook-webview: new Outlook for Windows; renders mail for a person (open), preflights links (click).
 * - office-app: an Office application's own WinINet requests; Outlook desktop loading a person's images
 *   (open), an Office app fetching a link itself before it hands it to the browser (click).
 * - bare-mozilla: exactly `Mozilla/5.0`, the Apple MPP fetcher; no browser sends it.
 * - pinned-browser: a desktop Chrome or Firefox older than any that system still runs (below 100); a click
 *   is a scanner's pinned build, an open says nothing.
 * - listed-bot: on isbot's list of web bots and no kind above. No browser sends it, so a click is a
 *   bot's; an open says nothing, as mail apps' own image loads send bare product tokens the list names
 *   (`Outlook-iOS/2.0`, `Thunderbird/128.0`).
 */
export type UaKind =
  | "tool"
  | "headless"
  | "crawler"
  | "unfurler"
  | "scanner"
  | "gmail-prefetch"
  | "gmail-proxy"
  | "yahoo-proxy"
  | "office-preflight"
  | "outlook-webview"
  | "office-app"
  | "bare-mozilla"
  | "pinned-browser"
  | "listed-bot";

export interface UaPattern {
  kind: UaKind;
  family: string;
  pattern: RegExp;
  source: string;
}

/** First match wins, so the specific mail UAs precede the generic `bot|crawler` catch-all. */
export const UA_PATTERNS: readonly UaPattern[] = [
  {
    kind: "gmail-prefetch",
    family: "gmail-prefetch",
    pattern: /Chrome\/42\.0\.2311\.135 Safari\/537\.36 Edge\/12\.246 Mozilla\/5\.0$/,
    source: "bird.com/en-us/blog/gmail-prefetching-images; gmass.co/blog/false-opens-in-gmail; mautic/mautic#10245",
  },
  {
    // Gmail following links in received mail, announced in its own UA (the Chrome/42 Edge/12 build Gmail's image
    // prefetch also sends, with this suffix instead of a second Mozilla/5.0).
    kind: "scanner",
    family: "gmail-content-sampling",
    pattern: /Gmail-content-sampling/,
    source: "mssola/user_agent#71 (2020: 'Gmail Bot User Agent are not handled as bot'), citing stackoverflow.com/questions/63184772",
  },
  {
    kind: "gmail-proxy",
    family: "gmail-image-proxy",
    pattern: /GoogleImageProxy/,
    source: "Postmark open-tracking docs; matomo-org/device-detector#5359",
  },
  {
    kind: "yahoo-proxy",
    family: "yahoo-image-proxy",
    pattern: /YahooMailProxy/,
    source: "help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html (UA seen in several codebases)",
  },
  {
    kind: "office-preflight",
    family: "outlook-preflight",
    pattern: /Microsoft Office Existence Discovery|ms-office-existence|Microsoft Office Protocol Discovery/i,
    source: "UA in open-source bot lists (Matomo bots.yml); nextauthjs/next-auth#1840",
  },
  {
    kind: "outlook-webview",
    family: "outlook-preflight",
    pattern: /OneOutlook\//,
    source: "nextauthjs/next-auth#1840 (Edg/117 ... OneOutlook/1.2023.927.100 with x-native-host)",
  },
  {
    kind: "office-app",
    family: "office-prefetch",
    pattern: /\(compatible; ms-office; MSOffice \d+/,
    source:
      "wpo365/wpo365-login#21 (links clicked in Word or PowerPoint reach the site first from the Office app's own " +
      "connection, UA ms-office); IdentityServer/IdentityServer3#2627 (Office URL pre-fetching before the browser)",
  },
  {
    kind: "headless",
    family: "headless-browser",
    pattern: /HeadlessChrome|PhantomJS|SlimerJS|HtmlUnit|puppeteer|playwright|selenium|Lighthouse/i,
    source: "jusso-dev/Collie lib/tracking/bot-detection.ts; emdash-cms/emdash#3298",
  },
  {
    kind: "tool",
    family: "http-tool",
    pattern:
      /^(?:curl|Wget|HTTPie|PostmanRuntime|axios|node-fetch|undici|got|Go-http-client|okhttp|Java|Apache-HttpClient|libwww-perl|python-requests|Python-urllib|aiohttp|python-httpx|Ruby|Faraday|Scrapy|Dart|reqwest|Deno|Bun)\b|python-requests|Go-http-client|\baiohttp\//i,
    source: "jusso-dev/Collie; putyourlightson/craft-campaign#546 (Python Requests scanner); aiohttp's default UA 'Python/3.x aiohttp/3.y' (its client docs, SERVER_SOFTWARE)",
  },
  {
    kind: "unfurler",
    family: "link-unfurler",
    // "Teams/<version> …Preview" on one line, looked for from the line's first Teams/<version>
    // only (an atomic lookahead): as `Teams\/[\d.]+ .*Preview` each Teams/1 of a UA a stranger
    // writes rescanned the rest of it (16 KB: 47 ms a request, 64 KB: 0.4 s).
    pattern:
      /Slackbot|Slack-ImgProxy|facebookexternalhit|Facebot|BingPreview|Twitterbot|LinkedInBot|Discordbot|TelegramBot|WhatsApp\/|SkypeUriPreview|MicrosoftPreview|(?:^|[\n\r\u2028\u2029])(?=([^\n\r\u2028\u2029]*?Teams\/[\d.]+ ))\1[^\n\r\u2028\u2029]*Preview|redditbot|Embedly|Iframely|vkShare|Pinterestbot|Applebot|kakaotalk-scrap/i,
    source: "research §1.2 generic non-human traffic; isbot pattern list (npm isbot 5.2.3); KakaoTalk's link preview " +
      "'kakaotalk-scrap/1.0; +https://devtalk.kakao.com/' as sites' preview and bot filters match it (issue #38)",
  },
  {
    kind: "unfurler",
    family: "discord-embed-proxy",
    // Exactly this string: Firefox 38 (2015) on OS X 10.10 is no browser anyone clicks with now.
    pattern: /^Mozilla\/5\.0 \(Macintosh; Intel Mac OS X 10\.10; rv:38\.0\) Gecko\/20100101 Firefox\/38\.0$/,
    source: "discord/discord-api-docs#3872 (Discord fetches links posted in messages for their embeds with this UA)",
  },
  {
    kind: "scanner",
    family: "named-scanner",
    pattern: /Barracuda|Proofpoint|urldefense|Mimecast|Symantec|Trend ?Micro|\bTMES\b|Sophos|IronPort|Cisco ?Secure|ZScaler|Forcepoint|Trustwave|Check ?Point|Avanan|Abnormal|Darktrace|VirusTotal|urlscan/i,
    // Vendors' names with or without their spaces, and Trend Micro Email Security's short name (its hosts
    // are *.tmes.trendmicro.com): a person's browser names no security vendor (issue #38).
    source: "research §2.3 (Barracuda Sentinel UA missed by isbot); jusso-dev/Collie scanner list",
  },
  {
    kind: "crawler",
    family: "crawler",
    pattern: /\b(?:bot|crawler|spider|crawl|scanner|checker|monitor|validator|preview|fetcher)\b|bot\/|Googlebot|bingbot|YandexBot|Baiduspider|DuckDuckBot|AhrefsBot|SemrushBot|MJ12bot|DotBot|PetalBot|GPTBot|ClaudeBot|CCBot|Bytespider|Amazonbot|\bYeti\/\d|\bDaumoa\b/i,
    source: "isbot 5.2.3 generic terms; Matomo bots.yml; Naver's crawler 'Yeti/1.1; +https://naver.me/spd' and Daum's 'Daumoa' " +
      "as Korean sites' bot filters match them (issue #38)",
  },
  {
    kind: "bare-mozilla",
    family: "apple-mpp",
    pattern: /^Mozilla\/5\.0$/,
    source: "Mailgun open-event example; ClickDimensions 'Adjusted Opens' (UA Mozilla/5.0 AND Apple IP)",
  },
  {
    // Chrome 100 (29 March 2022) reached every desktop system people still run: Windows 7 and 8.1 stopped at 109,
    // macOS 10.11-10.12 at 103, 10.13-10.14 at 116 (Google's support notices). Chrome updates itself, so a desktop
    // Chrome below 100 on one of them is a build kept on purpose: Defender's Chrome 57, 79 and 80 (gophish#973,
    // gophish#2446), Trend Micro's Web Reputation re-fetch with Chrome 22 (blog.z0i.net 2017-01; Trend Micro's KB
    // tmka-18762 says its servers fetch what its customers visit). Not systems whose last Chrome is older (Windows
    // XP and Vista, OS X 10.10 and before, 32-bit Linux), Chromebooks past their update date, legacy Edge (Windows
    // 10 LTSC 2019 keeps it), other Chromium browsers or Electron apps, which keep their own versions.
    kind: "pinned-browser",
    family: "pinned-browser",
    pattern: /^(?!.*(?:Edge?\/|OPR\/|Electron\/|YaBrowser\/|CrOS))Mozilla\/5\.0 \((?:Windows NT (?:10\.0|6\.[1-3])|Macintosh; Intel Mac OS X (?:10_1[1-5]|1[1-9])(?:_\d+)*|X11; Linux x86_64)[^)]*\) AppleWebKit\/[\d.]+ \(KHTML, like Gecko\) Chrome\/(?:\d|[1-9]\d)\./,
    source: "Chrome's release calendar (Chrome 100, 2022-03-29) and Google's end-of-support notices per system; " +
      "gophish#973, gophish#2446, blog.z0i.net (Trend Micro); no person in 25 independent sets (issue #38)",
  },
  {
    // The same for Firefox: Firefox 100 shipped on 2022-05-03 and updates itself; Windows 7-8.1 and macOS
    // 10.12-10.14 stopped at 115 ESR, so below 100 on them is a build kept on purpose (Discord's embed fetcher
    // keeps a Firefox 38). Not macOS 10.11 and before (78 ESR was their last), and not forks that append their
    // own token after Firefox's (Pale Moon, Waterfox, SeaMonkey): the UA must end at Firefox's version.
    kind: "pinned-browser",
    family: "pinned-browser",
    pattern: /^Mozilla\/5\.0 \((?:Windows NT (?:10\.0|6\.[1-3])|Macintosh; Intel Mac OS X 10\.1[2-5]|X11; (?:Ubuntu; |Fedora; )?Linux x86_64)[^)]*\) Gecko\/20100101 Firefox\/(?:\d|[1-9]\d)\.[\d.]*$/,
    source: "Mozilla's release calendar (Firefox 100, 2022-05-03) and its end-of-support notices for Windows 7-8.1 " +
      "and macOS 10.12-10.14 (115 ESR); discord/discord-api-docs#3872; no person in 32 independent sets (issue #38)",
  },
  {
    // Last, after every UA whose meaning depends on the action (image proxies, Office, unfurlers): isbot's list
    // calls those bots too. What it adds is the long tail that announces itself, such as LinkChecker's
    // "+https://linkchecker.github.io/" or a bare "Mozilla/5.0 (compatible)".
    kind: "listed-bot",
    family: "declared-bot",
    pattern: isbotPattern(),
    source: "npm isbot 5.2.3, its maintained pattern list (omrilotan/isbot); no person's open or click in nineteen " +
      "independent sets (issue #38) carries a UA it matches that the patterns above do not",
  },
];

/**
 * Chrome majors below this, on Windows, are treated as stale (scanners pin old builds): the Chrome of two
 * years before (130 shipped on 2024-10-15; raise it as Chrome moves on). Chrome updates itself within weeks;
 * Defender's pinned build was "8+ versions old" in March 2025 (Chrome 125, fleetdm/fleet#26976).
 */
export const DEFAULT_STALE_CHROME_BELOW_MAJOR = 130;

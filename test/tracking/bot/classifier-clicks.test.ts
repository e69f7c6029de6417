// Table tests: click signals → verdict, reason and family, per scanner family and hard human case.

import { describe, expect, test } from "bun:test";
import { classifyInteraction } from "../../../src/tracking/bot/classifier.ts";
import { createClassifierContext } from "../../../src/tracking/bot/context.ts";
import type { InteractionPattern, InteractionSignals, Verdict } from "../../../src/tracking/bot/types.ts";
import { IP, MX, UA, signals } from "./signals.ts";

const ctx = createClassifierContext();
const click = (o: Partial<InteractionSignals>): InteractionSignals => signals({ action: "click", ...o });
const spread = (recipients: number, domains: number, unopened: number) => ({ recipients, domains, unopened });
const pattern = (inSecond: number, inBurst: number, inWindow: number, linkCount?: number): InteractionPattern => ({
  distinctLinksInSecond: inSecond,
  distinctLinksInBurst: inBurst,
  distinctLinksInWindow: inWindow,
  ...(linkCount === undefined ? {} : { linkCount }),
});

type Row = [name: string, s: InteractionSignals, verdict: Verdict, reason: string, family?: string];

const scannerClicks: Row[] = [
  ["Safe Links detonation from EOP (mautic#9400 IP)", click({ ip: IP.eop2, userAgent: UA.chrome97Win, secondsSinceDelivery: 22 }), "bot", "network:microsoft-eop", "microsoft-eop"],
  ["Safe Links from EOP hours later (AIR re-crawl)", click({ ip: IP.eop, secondsSinceDelivery: 20_000 }), "bot", "network:microsoft-eop"],
  ["Safe Links from Azure: empty UA 22 s after delivery", click({ ip: IP.azure, userAgent: "", secondsSinceDelivery: 22, mxHosts: MX.m365 }), "bot", "ua:empty", "microsoft-365"],
  ["old Chrome 40 s after delivery to Microsoft 365 (Defender detonation)", click({ ip: "198.51.100.9", userAgent: UA.chrome114Win, secondsSinceDelivery: 40, mxHosts: MX.m365 }), "bot", "ua:stale-chrome", "microsoft-365"],
  ["Defender's Chrome 125, \"8+ versions old\" (fleetdm/fleet#26976), 30 s after delivery to Microsoft 365: below 130", click({ ip: "198.51.100.9", userAgent: UA.chrome114Win.replace("114.0.5735.199", "125.0.6422.142"), secondsSinceDelivery: 30, mxHosts: MX.m365 }), "bot", "ua:stale-chrome", "microsoft-365"],
  ["Safe Links from Azure: Chrome/104 seconds after delivery", click({ ip: IP.azure, userAgent: UA.chrome114Win.replace("114.0.5735.199", "104.0.5112.81"), secondsSinceDelivery: 40 }), "bot", "ua:stale-chrome"],
  ["HEAD request (next-auth#1840)", click({ method: "HEAD", secondsSinceDelivery: 3000 }), "bot", "method:head"],
  ["Barracuda EGD", click({ ip: IP.barracudaEgd, secondsSinceDelivery: 4 }), "bot", "network:barracuda", "barracuda"],
  ["Barracuda Sentinel announces itself (isbot misses it)", click({ ip: IP.azure, userAgent: UA.barracuda }), "bot", "ua:scanner", "named-scanner"],
  ["Proofpoint TAP within 5 min", click({ ip: IP.proofpoint, secondsSinceDelivery: 120, mxHosts: MX.proofpoint }), "bot", "timing:delivery-window", "proofpoint"],
  ["Mimecast pre-scan", click({ ip: IP.mimecast, secondsSinceDelivery: 8, mxHosts: MX.mimecast }), "bot", "network:mimecast", "mimecast"],
  ["Cisco sandbox", click({ ip: IP.cisco, secondsSinceDelivery: 60 }), "bot", "network:cisco", "cisco"],
  ["Cisco mail-gateway space at any time (no person browses from it, issue #38)", click({ ip: IP.cisco, secondsSinceDelivery: 50_000 }), "bot", "network:cisco", "cisco"],
  ["AWS sandbox 4 min after delivery behind a gateway with no documented delay (Sophos, issue #38)", click({ ip: IP.aws, secondsSinceDelivery: 240, mxHosts: ["mx-01-us-west-2.prod.hydra.sophos.com"] }), "bot", "timing:gateway-scan", "sophos"],
  ["two links within seconds 3 min after delivery behind a gateway MX, from cloud space", click({ ip: IP.azure, secondsSinceDelivery: 180, mxHosts: ["acme.in.tmes.trendmicro.com"], pattern: pattern(1, 2, 2, 6) }), "bot", "pattern:two-links-in-burst", "trend-micro"],
  ["undated: two links within seconds behind a gateway MX, from cloud space", click({ ip: IP.azure, mxHosts: MX.proofpoint, pattern: pattern(1, 2, 2, 6) }), "bot", "timing:unknown", "proofpoint"],
  ["Barracuda's published ESS range (209.222.80.0/21)", click({ ip: "209.222.86.40", secondsSinceDelivery: 40_000 }), "bot", "network:barracuda", "barracuda"],
  ["Proofpoint space after the window, a second link within seconds", click({ ip: IP.proofpoint, secondsSinceDelivery: 4000, pattern: pattern(1, 2, 2, 6) }), "bot", "pattern:two-links-in-burst", "proofpoint"],
  ["Mimecast space after the window with a pinned old Chrome", click({ ip: IP.mimecast, userAgent: UA.chrome114Win, secondsSinceDelivery: 4000 }), "bot", "ua:stale-chrome", "mimecast"],
  ["click from AWS 19 s after delivery to mail behind Proofpoint (MX prior)", click({ ip: IP.aws, secondsSinceDelivery: 19, mxHosts: MX.proofpoint }), "bot", "timing:gateway-scan", "proofpoint"],
  ["click from AWS 3 min after delivery behind Proofpoint (TAP's documented 5 min)", click({ ip: IP.aws, secondsSinceDelivery: 190, mxHosts: MX.proofpoint }), "bot", "timing:gateway-scan", "proofpoint"],
  ["Outlook.com's own link check from Azure, hours later, current browser (issue #38)", click({ ip: IP.azure, secondsSinceDelivery: 9000, mxHosts: MX.outlookCom }), "bot", "mailbox:own-link-check", "outlook-consumer"],
  ["Outlook.com's link check from Azure, undated", click({ ip: IP.azure, mxHosts: MX.outlookCom }), "bot", "mailbox:own-link-check", "outlook-consumer"],
  ["Trend Micro's own block 40 s after delivery (its crawler's space, issue #38)", click({ ip: "150.70.226.147", secondsSinceDelivery: 40 }), "bot", "timing:delivery-window", "trend-micro"],
  ["Safe Links from Microsoft's IPv6 allocation outside the /48s it publishes, 20 s after delivery", click({ ip: "2a01:111:7148:f978::42", secondsSinceDelivery: 20, mxHosts: MX.m365 }), "bot", "timing:delivery-window", "microsoft-services"],
  ["Trend Micro's Web Reputation re-fetch in Chrome 22, hours later from an unlisted address: a desktop Chrome below 100", click({ ip: "216.104.15.130", userAgent: "Mozilla/5.0 (Windows NT 6.1) AppleWebKit/537.2 (KHTML, like Gecko) Chrome/22.0.1216.0 Safari/537.2", secondsSinceDelivery: 9000 }), "bot", "ua:pinned-browser", "pinned-browser"],
  ["Chrome 97 on Windows 10 from a home address a day later: Windows 10 has had every Chrome since", click({ userAgent: UA.chrome97Win, secondsSinceDelivery: 90_000 }), "bot", "ua:pinned-browser", "pinned-browser"],
  ["Chrome 88 on a Mac, undated", click({ userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/88.0.4324.96 Safari/537.36" }), "bot", "ua:pinned-browser", "pinned-browser"],
  ["Firefox 91 on Windows 10 from a home address a day later: Windows 10 has had every Firefox since", click({ userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:91.0) Gecko/20100101 Firefox/91.0", secondsSinceDelivery: 90_000 }), "bot", "ua:pinned-browser", "pinned-browser"],
  ["LinkChecker announcing itself, a UA only isbot's list names (issue #38)", click({ userAgent: "LinkChecker/10.5 (+https://linkchecker.github.io/linkchecker/)", secondsSinceDelivery: 90_000 }), "bot", "ua:listed-bot", "declared-bot"],
  ["Barracuda EGD egress inside AWS space stays Barracuda's", click({ ip: IP.barracudaInAws, secondsSinceDelivery: 5000 }), "bot", "network:barracuda", "barracuda"],
  ["Defender re-crawl hours later from Azure with a pinned old Chrome", click({ ip: IP.azure, userAgent: UA.chrome114Win, secondsSinceDelivery: 53_000, mxHosts: MX.mimecast }), "bot", "ua:stale-chrome", "microsoft-defender"],
  ["undated Proofpoint click in Internet Explorer 11 (retired by Microsoft in 2022)", click({ ip: IP.proofpoint, userAgent: UA.ie11 }), "bot", "ua:retired-ie", "proofpoint"],
  ["Internet Explorer 40 s after delivery to Microsoft 365", click({ userAgent: UA.ie11, secondsSinceDelivery: 40, mxHosts: MX.m365 }), "bot", "ua:retired-ie", "microsoft-365"],
  ["Internet Explorer hours after delivery from a home network: disabled on Windows 10 and 11 since 2023, no set has a person on it (issue #38)", click({ userAgent: UA.ie11, secondsSinceDelivery: 9000 }), "bot", "ua:retired-ie", "unknown-scanner"],
  ["Chrome 114 on Windows 8.1: Chrome 109 was the last for Windows 7, 8 and 8.1 (a UA no browser sent)", click({ userAgent: "Mozilla/5.0 (Windows NT 6.3; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.5735.199 Safari/537.36", secondsSinceDelivery: 9000 }), "bot", "ua:no-such-browser"],
  ["Internet Explorer 9, undated, from an unlisted network (a crawler's pinned UA)", click({ userAgent: "Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0)" }), "bot", "ua:retired-ie"],
  ["undated Proofpoint click: a second link within seconds", click({ ip: IP.proofpoint, pattern: pattern(1, 2, 2, 6) }), "bot", "pattern:two-links-in-burst", "proofpoint"],
  ["Proofpoint space an hour in: a fifth link of the message within a minute, none seconds from another (a sandbox's crawl)", click({ ip: IP.proofpoint, secondsSinceDelivery: 4000, pattern: pattern(1, 1, 5, 12) }), "bot", "pattern:links-in-minute", "proofpoint"],
  ["undated Mimecast space: six guessed links within a minute (the bot API without a url)", click({ ip: IP.mimecast, pattern: { ...pattern(1, 1, 6), linksInferred: true } }), "bot", "pattern:links-in-minute", "mimecast"],
  ["two links in the same second, 4 min after delivery", click({ secondsSinceDelivery: 240, pattern: pattern(2, 2, 2, 6) }), "bot", "pattern:links-in-one-second"],
  ["two links in the same second from Azure, hours after delivery", click({ ip: IP.azure, secondsSinceDelivery: 9000, pattern: pattern(2, 2, 2, 6) }), "bot", "pattern:links-in-one-second"],
  ["four guessed links in a 5 s burst (the bot API without a url), undated", click({ pattern: { ...pattern(2, 4, 4), linksInferred: true } }), "bot", "pattern:link-burst"],
  ["a guessed link with the hidden link in one second: the hidden link is no visible link", click({ secondsSinceDelivery: 200, hasHoneypotHit: true, pattern: { ...pattern(2, 2, 2), linksInferred: true } }), "bot", "pattern:links-in-one-second"],
  ["three links in a 5 s burst, undated", click({ pattern: pattern(1, 3, 3, 8) }), "bot", "pattern:link-burst"],
  ["three links in one second from a home address hours after delivery: a crawl", click({ secondsSinceDelivery: 9000, pattern: pattern(3, 3, 3, 8) }), "bot", "pattern:links-in-one-second"],
  ["four links in 5 s from a home address hours after delivery: a crawl", click({ secondsSinceDelivery: 9000, pattern: pattern(1, 4, 4, 8) }), "bot", "pattern:link-burst"],
  ["every link of a 4-link message within a minute", click({ secondsSinceDelivery: 9000, pattern: pattern(1, 2, 4, 4) }), "bot", "pattern:every-link"],
  ["every link plus the honeypot", click({ secondsSinceDelivery: 9000, pattern: pattern(1, 2, 5, 4) }), "bot", "pattern:every-link-and-honeypot"],
  ["honeypot hit by the same ip+UA soon after delivery", click({ ip: IP.azure, hasHoneypotHit: true, secondsSinceDelivery: 200 }), "bot", "honeypot:same-ip-ua"],
  ["honeypot hit by a crawler hours later (with many links)", click({ hasHoneypotHit: true, secondsSinceDelivery: 30_000, pattern: pattern(1, 1, 4, 10) }), "bot", "pattern:many-links"],
  ["a late honeypot hit with Internet Explorer's UA: corroborated by a UA no person sends", click({ userAgent: UA.ie11, hasHoneypotHit: true, secondsSinceDelivery: 9000 }), "bot", "ua:retired-ie"],
  ["click 1 s after delivery (Collie: < 1.5 s)", click({ secondsSinceDelivery: 1 }), "bot", "timing:instant"],
  ["empty UA later", click({ userAgent: "", secondsSinceDelivery: 50_000 }), "bot", "ua:empty"],
  ["Outlook existence discovery", click({ userAgent: UA.officeDiscovery, method: "HEAD" }), "bot", "ua:office-preflight", "outlook-preflight"],
  ["a link fetched from Google's service netblocks with a browser UA (Gmail checking it, not a person)", click({ ip: "66.249.84.10", secondsSinceDelivery: 400 }), "bot", "network:google", "google"],
  ["a link fetched from Exchange Online's service space (Safe Links), current browser, hours later", click({ ip: "2603:1036:302:4a::2", secondsSinceDelivery: 9000 }), "bot", "network:exchange-online", "exchange-online"],
  ["a link fetched from Microsoft 365's SharePoint front-ends (a Microsoft service, no person's browser), hours later", click({ ip: "52.105.18.4", secondsSinceDelivery: 9000 }), "bot", "network:microsoft-365", "microsoft-365"],
  ["Hornetsecurity's published range 40 s after delivery (its ATP scan)", click({ ip: "94.100.139.151", secondsSinceDelivery: 40 }), "bot", "network:hornetsecurity", "hornetsecurity"],
  ["a link fetched from Googlebot's published range with a browser UA (issue #38)", click({ ip: "66.249.66.1", secondsSinceDelivery: 40_000 }), "bot", "network:googlebot", "googlebot"],
  ["a link fetched from Cisco's Cloud Gateway space its customers' SPF names, hours later", click({ ip: "68.232.141.245", secondsSinceDelivery: 20_000 }), "bot", "network:cisco", "cisco"],
  ["an Office app fetching the link itself before the browser (ms-office WinINet UA)", click({ userAgent: UA.msOffice, secondsSinceDelivery: 4000 }), "bot", "ua:office-app", "office-prefetch"],
  ["new Outlook preflight GET (OneOutlook)", click({ userAgent: UA.newOutlook, secondsSinceDelivery: 400 }), "bot", "ua:outlook-webview", "outlook-preflight"],
  ["an image proxy UA does not click", click({ ip: IP.googleProxy, userAgent: UA.gmailProxy }), "bot", "ua:gmail-proxy"],
  ["bare Mozilla/5.0 does not click either", click({ userAgent: UA.bareMozilla }), "bot", "ua:bare-mozilla"],
  ["python-requests (craft-campaign#546)", click({ userAgent: UA.pythonRequests }), "bot", "ua:tool", "http-tool"],
  ["aiohttp's default UA, which starts with Python/", click({ userAgent: "Python/3.11 aiohttp/3.9.1", secondsSinceDelivery: 9000 }), "bot", "ua:tool", "http-tool"],
  ["Gmail following a link, in its own UA (mssola/user_agent#71)", click({ ip: "66.249.84.10", secondsSinceDelivery: 5400,
    userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/42.0.2311.135 Safari/537.36 Edge/12.246 Gmail-content-sampling" }),
  "bot", "ua:scanner", "gmail-content-sampling"],
  ["botnet node: a third recipient, of a second domain, within 30 min", click({ secondsSinceDelivery: 9000, spread: spread(3, 2, 1) }), "bot", "across:many-recipients", "botnet"],
  ["botnet node that never fetched a pixel", click({ secondsSinceDelivery: 9000, spread: spread(5, 4, 5) }), "bot", "across:never-opened", "botnet"],
  ["Slack unfurl of a forwarded mail", click({ userAgent: UA.slackbot, secondsSinceDelivery: 90_000 }), "bot", "ua:unfurler", "link-unfurler"],
  ["facebookexternalhit", click({ userAgent: UA.facebook }), "bot", "ua:unfurler"],
];

const humanClicks: Row[] = [
  ["iCloud Private Relay click from Apple egress", click({ ip: IP.appleV4, userAgent: UA.iosSafari, secondsSinceDelivery: 4000 }), "human", "private-relay-click"],
  ["Private Relay over IPv6", click({ ip: IP.appleV6, userAgent: UA.iosSafari, secondsSinceDelivery: 600 }), "human", "network:apple-egress"],
  ["a person on Windows XP with its last Chrome (49): a system whose last Chrome is below 100", click({ userAgent: "Mozilla/5.0 (Windows NT 5.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/49.0.2623.112 Safari/537.36", secondsSinceDelivery: 9000 }), "human", "no-bot-signal"],
  ["an old Android phone with its last Chrome (95 on Android 5)", click({ userAgent: "Mozilla/5.0 (Linux; Android 5.1.1; SM-J120F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/95.0.4638.74 Mobile Safari/537.36", secondsSinceDelivery: 9000 }), "human", "no-bot-signal"],
  ["a Chromebook past its update date (Chrome 91)", click({ userAgent: "Mozilla/5.0 (X11; CrOS x86_64 13904.97.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/91.0.4472.167 Safari/537.36", secondsSinceDelivery: 9000 }), "human", "no-bot-signal"],
  ["Chrome 130 on Windows 30 s after delivery behind Microsoft 365: two years back is not stale", click({ ip: "198.51.100.9", userAgent: UA.chrome114Win.replace("114.0.5735.199", "130.0.6723.92"), secondsSinceDelivery: 30, mxHosts: MX.m365 }), "human", "no-bot-signal"],
  ["Firefox 78 ESR on OS X 10.11, its last", click({ userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.11; rv:78.0) Gecko/20100101 Firefox/78.0", secondsSinceDelivery: 9000 }), "human", "no-bot-signal"],
  ["Pale Moon, a Firefox fork with its own version after Firefox's", click({ userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:68.0) Gecko/20100101 Goanna/4.8 Firefox/68.0 PaleMoon/28.10.0", secondsSinceDelivery: 9000 }), "human", "no-bot-signal"],
  ["legacy Edge on Windows 10 LTSC 2019 (Chrome/70 in its UA)", click({ userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.102 Safari/537.36 Edge/18.17763", secondsSinceDelivery: 9000 }), "human", "no-bot-signal"],
  ["a person still on Windows 7 with its last Chrome (109), hours after delivery from home", click({ userAgent: "Mozilla/5.0 (Windows NT 6.1; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Safari/537.36", secondsSinceDelivery: 9000 }), "human", "no-bot-signal"],
  ["Azure VDI user on a current browser", click({ ip: IP.azure, secondsSinceDelivery: 3000, mxHosts: MX.m365 }), "human", "no-bot-signal"],
  ["Azure VDI user, fast, current browser", click({ ip: IP.azure, secondsSinceDelivery: 60, mxHosts: MX.m365 }), "human", "no-bot-signal"],
  ["one link from Trend Micro's own block hours later in a current browser (its web gateway may carry a person)", click({ ip: "150.70.12.9", secondsSinceDelivery: 9000 }), "human", "timing:after-window(browser-isolation)"],
  ["four links within a minute from Proofpoint's space an hour in: a person opening links through its isolation", click({ ip: IP.proofpoint, secondsSinceDelivery: 4000, pattern: pattern(1, 1, 4, 12) }), "human", "timing:after-window(browser-isolation)"],
  ["five guessed links within a minute from Mimecast's space, undated: one of them may be a link clicked twice", click({ ip: IP.mimecast, pattern: { ...pattern(1, 1, 5), linksInferred: true } }), "unknown", "timing:unknown"],
  ["an Outlook.com reader at home, seconds after delivery", click({ secondsSinceDelivery: 20, mxHosts: MX.outlookCom }), "human", "no-bot-signal"],
  ["an Outlook.com reader from AWS space (only Azure is Microsoft's)", click({ ip: IP.aws, secondsSinceDelivery: 9000, mxHosts: MX.outlookCom }), "human", "no-bot-signal"],
  ["AWS address behind Mimecast, past its documented 2 minutes", click({ ip: IP.aws, secondsSinceDelivery: 120, mxHosts: MX.mimecast }), "human", "no-bot-signal"],
  ["AWS address behind a gateway with no documented delay, past the 5-minute scan bound", click({ ip: IP.aws, secondsSinceDelivery: 320, mxHosts: ["d123.ess.barracudanetworks.com"] }), "human", "no-bot-signal"],
  ["a hidden-link tap then one click within seconds behind a gateway MX (the pair is the honeypot's)", click({ secondsSinceDelivery: 3600, mxHosts: MX.mimecast, hasHoneypotHit: true, pattern: pattern(1, 2, 2, 6) }), "unknown", "uncorroborated"],
  ["two guessed links in one second (the bot API without a url): one link clicked twice as likely", click({ secondsSinceDelivery: 9000, pattern: { ...pattern(2, 2, 2), linksInferred: true } }), "human", "no-bot-signal"],
  ["three guessed links within 5 s: two clicks, one of them doubled across a second", click({ secondsSinceDelivery: 9000, pattern: { ...pattern(2, 3, 3), linksInferred: true } }), "human", "no-bot-signal"],
  ["two guessed links within seconds behind a gateway MX, undated: no pair", click({ mxHosts: MX.proofpoint, pattern: { ...pattern(1, 2, 2), linksInferred: true } }), "human", "no-bot-signal"],
  ["two links within seconds 3 min after delivery behind a gateway MX, from an office's own address: tabs", click({ secondsSinceDelivery: 180, mxHosts: ["acme.in.tmes.trendmicro.com"], pattern: pattern(1, 2, 2, 6) }), "human", "no-bot-signal"],
  ["undated: two links within seconds behind a gateway MX, from an office's own address", click({ mxHosts: MX.proofpoint, pattern: pattern(1, 2, 2, 6) }), "human", "no-bot-signal"],
  ["two links in one second from a home address hours after delivery: links opened in new tabs", click({ secondsSinceDelivery: 9000, pattern: pattern(2, 2, 2, 6) }), "human", "no-bot-signal"],
  ["three links within 5 s behind Private Relay 20 minutes in: tabs", click({ ip: IP.appleV4, userAgent: UA.iosSafari, secondsSinceDelivery: 1200, pattern: pattern(2, 3, 3, 8) }), "human", "private-relay-click"],
  ["two links within seconds 3 min in, behind a plain mailbox (no sandbox there)", click({ secondsSinceDelivery: 180, mxHosts: MX.gmail, pattern: pattern(1, 2, 2, 6) }), "human", "no-bot-signal"],
  ["AWS address behind Proofpoint, past TAP's 5 minutes", click({ ip: IP.aws, secondsSinceDelivery: 300, mxHosts: MX.proofpoint }), "human", "no-bot-signal"],
  ["AWS address seconds after delivery to a mailbox with no gateway", click({ ip: IP.aws, secondsSinceDelivery: 10, mxHosts: MX.gmail }), "human", "no-bot-signal"],
  ["AWS address seconds after delivery, MX unknown", click({ ip: IP.aws, secondsSinceDelivery: 10 }), "human", "no-bot-signal"],
  ["Azure VDI seconds after delivery behind a gateway (gateways sandbox in AWS)", click({ ip: IP.azure, secondsSinceDelivery: 12, mxHosts: MX.proofpoint }), "human", "no-bot-signal"],
  ["Azure VDI seconds after delivery to Microsoft 365, current browser", click({ ip: IP.azure, secondsSinceDelivery: 15, mxHosts: MX.m365 }), "human", "no-bot-signal"],
  ["AWS address with an old Chrome hours later (only Azure re-crawls)", click({ ip: IP.aws, userAgent: UA.chrome114Win, secondsSinceDelivery: 53_000 }), "human", "no-bot-signal"],
  ["undated Proofpoint click, one link: isolation or sandbox, unknown", click({ ip: IP.proofpoint, pattern: pattern(1, 1, 2, 6) }), "unknown", "timing:unknown"],
  ["browser isolation via Proofpoint an hour later", click({ ip: IP.proofpoint, secondsSinceDelivery: 3600, mxHosts: MX.proofpoint }), "human", "timing:after-window(browser-isolation)"],
  ["Hornetsecurity's space a day later, one link: its web filter's person", click({ ip: "83.246.65.9", secondsSinceDelivery: 86_400 }), "human", "timing:after-window(browser-isolation)"],
  ["browser isolation via Mimecast a day later", click({ ip: IP.mimecast, secondsSinceDelivery: 86_400 }), "human", "timing:after-window(browser-isolation)"],
  ["browser isolation via Mimecast 150 s in, past its documented 2 minutes", click({ ip: IP.mimecast, secondsSinceDelivery: 150 }), "human", "timing:after-window(browser-isolation)"],
  ["fast reader clicks 20 s after delivery on current Chrome", click({ secondsSinceDelivery: 20, mxHosts: MX.gmail }), "human", "no-bot-signal"],
  ["fast multi-link human: 3 links within a minute, spaced", click({ secondsSinceDelivery: 700, pattern: pattern(1, 1, 3, 8) }), "human", "no-bot-signal"],
  ["human clicks every link of a 3-link mail (below the 4-link minimum)", click({ secondsSinceDelivery: 700, pattern: pattern(1, 1, 3, 3) }), "human", "no-bot-signal"],
  ["old corporate Chrome 109, not near delivery", click({ userAgent: UA.chrome109Win7, secondsSinceDelivery: 1800 }), "human", "no-bot-signal"],
  ["honeypot tapped 30 s after delivery to a Gmail mailbox: no sandbox there, uncorroborated", click({ hasHoneypotHit: true, secondsSinceDelivery: 30, mxHosts: MX.gmail }), "unknown", "uncorroborated"],
  ["old Chrome 40 s after delivery to a Gmail mailbox (no sandbox in front of it)", click({ userAgent: UA.chrome114Win, secondsSinceDelivery: 40, mxHosts: MX.gmail }), "human", "no-bot-signal"],
  ["honeypot taint never sticks to Apple relay IPs", click({ ip: IP.appleV4, userAgent: UA.iosSafari, hasHoneypotHit: true, secondsSinceDelivery: 30 }), "human", "private-relay-click"],
  ["mobile IPv6", click({ ip: IP.mobileV6, userAgent: UA.androidChrome, secondsSinceDelivery: 500 }), "human", "no-bot-signal"],
  ["colleagues behind the office NAT, one domain, one browser image", click({ secondsSinceDelivery: 900, spread: spread(12, 1, 4) }), "human", "no-bot-signal"],
  ["two subscribers behind one carrier NAT with the same iOS build", click({ userAgent: UA.iosSafari, secondsSinceDelivery: 900, spread: spread(2, 2, 2) }), "human", "no-bot-signal"],
  ["Outlook user's own click after the preflight", click({ userAgent: UA.chromeWin, secondsSinceDelivery: 400, mxHosts: MX.m365 }), "human", "no-bot-signal"],
];

const undecided: Row[] = [
  ["accidental honeypot tap, then a late single click", click({ hasHoneypotHit: true, secondsSinceDelivery: 9000, pattern: pattern(1, 2, 2, 6) }), "unknown", "uncorroborated"],
  ["Proofpoint network, delivery time unknown", click({ ip: IP.proofpoint }), "unknown", "timing:unknown"],
];

describe("classifyInteraction: clicks", () => {
  test.each([...scannerClicks, ...humanClicks, ...undecided])("%s", (...row) => {
    const [, s, verdict, reason, family] = row as unknown as Row;
    const v = classifyInteraction(s, ctx);
    expect(v.verdict).toBe(verdict);
    expect(v.isBot).toBe(verdict === "bot");
    expect(v.reasons).toContain(reason);
    if (family !== undefined) expect(v.family).toBe(family);
  });

  test("the same Apple egress address is a machine for opens and a person for clicks", () => {
    const base = { ip: IP.appleV4, userAgent: UA.iosSafari, secondsSinceDelivery: 600 };
    expect(classifyInteraction(signals({ action: "open", ...base }), ctx).isBot).toBe(true);
    expect(classifyInteraction(signals({ action: "click", ...base }), ctx).isBot).toBe(false);
  });

  test("a gateway anywhere in the MX set names the expected scanner", () => {
    const s = click({ ip: IP.azure, userAgent: "", secondsSinceDelivery: 10, mxHosts: ["mx.example.com", ...MX.proofpoint] });
    expect(classifyInteraction(s, ctx).family).toBe("proofpoint");
  });

  test("extra ranges can be loaded at startup (e.g. a refreshed vendor list)", () => {
    const custom = createClassifierContext({ extraRanges: [{ family: "acme-scanner", role: "scanner", source: "test", cidrs: ["81.2.69.0/24"] }] });
    expect(classifyInteraction(click({ ip: IP.home }), custom)).toMatchObject({ isBot: true, family: "acme-scanner" });
    expect(classifyInteraction(click({ ip: IP.home }), ctx).isBot).toBe(false);
  });
});

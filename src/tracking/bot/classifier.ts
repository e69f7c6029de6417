// The pure bot classifier: one interaction's signals → human | bot | unknown, with reasons.
// Opens and clicks follow different rules because the same network means opposite things for
// them (Apple egress: machine open, human click; Google/Outlook proxies: human open, no click).
// It never touches I/O or the clock; callers pass timing, MX, honeypot and pattern facts in.

import type { ClassifierContext, MxMatch, NetworkMatch, UaMatch } from "./context.ts";
import type { BotVerdict, InteractionSignals } from "./types.ts";

interface Facts {
  network: NetworkMatch | undefined;
  ua: UaMatch | undefined;
  gateway: MxMatch | undefined;
  seconds: number | undefined;
  isEmptyUa: boolean;
  /** A browser no person runs any more (a pinned old Windows Chrome, Internet Explorer), or one that never existed. */
  staleUa: "ua:stale-chrome" | "ua:retired-ie" | "ua:no-such-browser" | undefined;
  isHead: boolean;
  /** Ranges that carry many people: a honeypot hit from them says nothing about this request. */
  isSharedHumanNetwork: boolean;
}

type Decision = BotVerdict | undefined;

const CHROME_MAJOR = /\bChrome\/(\d+)\./;
const WINDOWS = /Windows NT/;
/**
 * Internet Explorer: Microsoft retired the IE 11 desktop application on 15 June 2022 (its lifecycle
 * FAQ) and disabled it for good through an Edge update on 14 February 2023. Edge's IE mode sends this
 * UA only to sites on an organisation's IE-mode list, which a tracking host is not; scanners still send it.
 */
const INTERNET_EXPLORER = /\bTrident\/\d|\bMSIE \d/;
/**
 * Windows 7, 8 and 8.1: Chrome 109 was the last Chrome (and Edge 109 the last Edge) for them (Google's and
 * Microsoft's support notices, January 2023). A later Chrome on them is a UA no browser ever sent: a scanner's.
 */
const OLD_WINDOWS = /Windows NT 6\.[0-3]\b/;
const LAST_CHROME_ON_OLD_WINDOWS = 109;
const DECLARED_BOT_KINDS = new Set(["tool", "headless", "crawler", "unfurler", "scanner"]);
const NO_BROWSER_KINDS = new Set(["gmail-prefetch", "gmail-proxy", "yahoo-proxy", "bare-mozilla", "pinned-browser", "listed-bot"]);
const SHARED_HUMAN_ROLES = new Set(["apple-egress", "google", "mail-proxy-human"]);
/** Networks of mail services' proxies and crawlers: people's opens come through them, people's clicks never do. */
const MAIL_SERVICE_ROLES = new Set(["google", "mail-proxy-human"]);
/** Distinct links within the burst window that mark a vendor-network click as a sandbox's outside the delivery window. */
const UNDATED_VENDOR_BURST_LINKS = 2;
/**
 * Distinct links of a message one vendor network fetches within the pattern window (a minute) that mark its
 * sandbox at any time: one working through a message's links a few seconds each. A person behind the vendor's
 * isolation opens a link and reads it; five links in a minute from there is a crawl.
 */
const VENDOR_MINUTE_LINKS = 5;
/**
 * Which cloud each kind of MX detonates links from at delivery: third-party gateways from AWS
 * (Proofpoint, Mimecast and Barracuda egress there). Microsoft 365 with Azure is left out: people on
 * Azure Virtual Desktop and Windows 365 read their mail at once too (measured in docs/bot-detection.md).
 */
const SANDBOX_CLOUD_BY_MX_ROLE: Readonly<Record<string, string | undefined>> = { gateway: "aws" };

const bot = (family: string, ...reasons: string[]): BotVerdict => ({ verdict: "bot", isBot: true, reasons, family });
const human = (...reasons: string[]): BotVerdict => ({ verdict: "human", isBot: false, reasons });
const unknown = (...reasons: string[]): BotVerdict => ({ verdict: "unknown", isBot: false, reasons });
/** Internet Explorer, or a Chrome its Windows never had: no person's browser (rule 12a). */
const noBrowserUa = (f: Facts) => (f.staleUa === "ua:retired-ie" || f.staleUa === "ua:no-such-browser" ? f.staleUa : undefined);

function staleUaOf(userAgent: string, belowMajor: number): Facts["staleUa"] {
  if (INTERNET_EXPLORER.test(userAgent)) return "ua:retired-ie";
  if (!WINDOWS.test(userAgent)) return undefined;
  const major = CHROME_MAJOR.exec(userAgent)?.[1];
  if (major === undefined) return undefined;
  if (Number(major) > LAST_CHROME_ON_OLD_WINDOWS && OLD_WINDOWS.test(userAgent)) return "ua:no-such-browser";
  return Number(major) < belowMajor ? "ua:stale-chrome" : undefined;
}

function collectFacts(s: InteractionSignals, ctx: ClassifierContext): Facts {
  const network = s.ip ? ctx.networks.lookup(s.ip) : undefined;
  const userAgent = s.userAgent.trim();
  const seconds = s.secondsSinceDelivery;
  return {
    network,
    ua: userAgent ? ctx.matchUserAgent(userAgent) : undefined,
    gateway: s.mxHosts && s.mxHosts.length > 0 ? ctx.matchMx(s.mxHosts) : undefined,
    seconds: seconds !== undefined && Number.isFinite(seconds) ? Math.max(0, seconds) : undefined,
    isEmptyUa: userAgent === "",
    staleUa: staleUaOf(userAgent, ctx.thresholds.staleChromeBelowMajor),
    isHead: (s.method ?? "GET").toUpperCase() === "HEAD",
    isSharedHumanNetwork: network !== undefined && SHARED_HUMAN_ROLES.has(network.role),
  };
}

/** The family to report when only timing or honeypot evidence exists: the gateway we expect. */
function expectedScanner(f: Facts): string {
  return f.gateway && f.gateway.role !== "mailbox" ? f.gateway.family : "unknown-scanner";
}

/**
 * One more link each pattern rule needs when the links are guesses (InteractionPattern.linksInferred):
 * two guessed links may be one link clicked twice. Not when the client hit the hidden link, which no
 * visible link can be.
 */
function guessedLinkMargin(s: InteractionSignals): number {
  return s.pattern?.linksInferred && !s.hasHoneypotHit ? 1 : 0;
}

/** Networks that are only machines: security vendors' scanners, and search engines' published crawlers. */
const DECLARED_BOT_ROLES = new Set(["scanner", "crawler"]);

function decideDeclared(f: Facts): Decision {
  if (f.ua && DECLARED_BOT_KINDS.has(f.ua.kind)) return bot(f.ua.family, `ua:${f.ua.kind}`);
  if (f.network && DECLARED_BOT_ROLES.has(f.network.role)) return bot(f.network.family, `network:${f.network.family}`);
  return undefined;
}

/**
 * Vendor networks that also host browser isolation: bot near delivery, within the vendor's
 * documented sandbox delay (Mimecast 2 min, Cisco 3 min) or else the default 5 minutes. Later, or
 * undated, a sandbox still gives itself away by what no isolated browser does: a second link of the message
 * within seconds, five within a minute, or a stale or empty UA (an isolation service runs a current browser
 * for the person). A person behind Mimecast's isolation clicking one link at 2-5 minutes stays a person.
 */
function decideProbableNetwork(s: InteractionSignals, f: Facts, ctx: ClassifierContext): Decision {
  if (f.network?.role !== "scanner-probable") return undefined;
  const reason = `network:${f.network.family}`;
  const windowSeconds = ctx.scanSecondsOf(f.network.family) ?? ctx.thresholds.probableNetworkWindowSeconds;
  if (f.seconds !== undefined && f.seconds < windowSeconds) return bot(f.network.family, reason, "timing:delivery-window");
  const timing = f.seconds === undefined ? "timing:unknown" : "timing:after-window";
  const margin = guessedLinkMargin(s);
  if ((s.pattern?.distinctLinksInBurst ?? 0) >= UNDATED_VENDOR_BURST_LINKS + margin) {
    return bot(f.network.family, reason, timing, "pattern:two-links-in-burst");
  }
  if ((s.pattern?.distinctLinksInWindow ?? 0) >= VENDOR_MINUTE_LINKS + margin) return bot(f.network.family, reason, timing, "pattern:links-in-minute");
  if (f.isEmptyUa || f.staleUa) return bot(f.network.family, reason, timing, f.staleUa ?? "ua:empty");
  return f.seconds === undefined ? unknown(reason, timing) : human(reason, "timing:after-window(browser-isolation)");
}

/**
 * The recipient's MX as a prior: mail behind a security gateway has its links fetched by the
 * gateway's sandbox within seconds of delivery, from cloud space. The same click minutes later, or
 * from an address outside cloud space, stays a person's (VDI, isolation, corporate NAT). A consumer
 * mailbox whose provider checks links from its own cloud (Outlook.com, Azure) has no people there.
 */
function decideGatewayPrior(f: Facts, ctx: ClassifierContext): Decision {
  if (!f.gateway || f.network?.role !== "cloud") return undefined;
  const reasons = [`mx:${f.gateway.family}`, `network:${f.network.family}`];
  if (f.gateway.checksFrom === f.network.family) return bot(f.gateway.family, ...reasons, "mailbox:own-link-check");
  if (f.seconds === undefined || SANDBOX_CLOUD_BY_MX_ROLE[f.gateway.role] !== f.network.family) return undefined;
  // The vendor's documented sandbox delay when longer: Proofpoint TAP detonates up to 5 minutes in.
  const window = Math.max(ctx.thresholds.gatewayCloudWindowSeconds, f.gateway.scanSeconds ?? ctx.thresholds.probableNetworkWindowSeconds);
  return f.seconds < window ? bot(f.gateway.family, ...reasons, "timing:gateway-scan") : undefined;
}

/**
 * Defender re-crawls links hours after delivery from Azure, with the same pinned old Chrome builds
 * it detonates with at delivery. A person on an Azure cloud desktop runs a managed, current browser.
 */
function decideCloudStaleBrowser(f: Facts): Decision {
  // AWS is left out: the set has a person with an old Chrome on AWS egress, and no AWS re-crawler.
  if (f.network?.role !== "cloud" || f.network.family !== "azure" || !f.staleUa) return undefined;
  return bot("microsoft-defender", "network:azure", f.staleUa);
}

function decideHoneypot(s: InteractionSignals, f: Facts, ctx: ClassifierContext): Decision {
  if (!s.hasHoneypotHit || f.isSharedHumanNetwork) return undefined;
  const t = ctx.thresholds;
  // Early means sandbox time, and a plain mailbox (MX role "mailbox") has no sandbox in front of it.
  const isEarly = f.seconds !== undefined && f.seconds < t.honeypotWindowSeconds && f.gateway?.role !== "mailbox";
  // The honeypot itself is one of the distinct links, so a crawl means honeypot + a burst's worth.
  const isCrawl = (s.pattern?.distinctLinksInWindow ?? 0) > t.linksInBurst;
  // A UA no person's browser sends (rule 12a's) corroborates the hit as an empty one does.
  const why = isEarly ? "timing:delivery-window" : isCrawl ? "pattern:many-links" : f.isEmptyUa ? "ua:empty" : noBrowserUa(f);
  if (why) return bot(expectedScanner(f), "honeypot:same-ip-ua", why);
  // People tap hidden links too (groupvalet); alone, a late hit is not enough to condemn.
  return unknown("honeypot:same-ip-ua", "uncorroborated");
}

function decideTiming(f: Facts, ctx: ClassifierContext): Decision {
  if (f.seconds === undefined) return undefined;
  const t = ctx.thresholds;
  if (f.seconds < t.instantSeconds) return bot(expectedScanner(f), "timing:instant");
  // A mailbox with no delivery-time scanning in front of it (MX role "mailbox": Gmail, Workspace,
  // Yahoo, iCloud) has no sandbox to detonate its links: an old Chrome there is a person's.
  const isUnscannedMailbox = f.gateway?.role === "mailbox";
  if (f.seconds < t.scanWindowSeconds && (f.isEmptyUa || f.staleUa) && !isUnscannedMailbox) {
    return bot(expectedScanner(f), "timing:scan-window", f.staleUa ?? "ua:empty");
  }
  return undefined;
}

/**
 * One more link the one-second and burst rules need from where people are (no listed network, or
 * Private Relay) after every delivery-time sandbox has finished: there a person opening three links
 * in new tabs makes the same shape as a sandbox, and what still comes in bursts then is a crawl.
 */
function lateFromPeopleMargin(f: Facts, ctx: ClassifierContext): number {
  const isPeoplesSpace = f.network === undefined || f.network.role === "apple-egress";
  return isPeoplesSpace && f.seconds !== undefined && f.seconds >= ctx.thresholds.probableNetworkWindowSeconds ? 1 : 0;
}

function decidePattern(s: InteractionSignals, f: Facts, ctx: ClassifierContext): Decision {
  const p = s.pattern;
  if (!p) return undefined;
  const t = ctx.thresholds;
  const margin = guessedLinkMargin(s) + lateFromPeopleMargin(f, ctx);
  if (p.distinctLinksInSecond >= t.linksInSecond + margin) return bot("unknown-scanner", "pattern:links-in-one-second");
  if (p.distinctLinksInBurst >= t.linksInBurst + margin) return bot("unknown-scanner", "pattern:link-burst");
  const isAllLinks = p.linkCount !== undefined && p.linkCount >= t.allLinksMinimum;
  if (isAllLinks && p.distinctLinksInWindow > (p.linkCount ?? Infinity)) {
    // More distinct links than the message has means the honeypot was among them.
    return bot("unknown-scanner", "pattern:every-link-and-honeypot");
  }
  if (isAllLinks && p.distinctLinksInWindow >= (p.linkCount ?? Infinity)) {
    return bot("unknown-scanner", "pattern:every-link");
  }
  return undefined;
}

/**
 * One client in cloud space fetching two links of a message within seconds, minutes after delivery
 * (or undated), for mail that passes a scanning MX: a sandbox working through the links it has no
 * reputation for (Cisco and Proofpoint fetch a subset). A person behind a plain mailbox, or reading
 * later, is left alone; so is one at home or in an office, who opens two links in new tabs as fast.
 */
function decideEarlyPair(s: InteractionSignals, f: Facts, ctx: ClassifierContext): Decision {
  if (f.seconds !== undefined && f.seconds >= ctx.thresholds.probableNetworkWindowSeconds) return undefined;
  if (!f.gateway || f.gateway.role === "mailbox" || f.network?.role !== "cloud") return undefined;
  // The hidden link counts as a link; a person who taps it and then clicks is left to the honeypot rule.
  const pair = UNDATED_VENDOR_BURST_LINKS + (s.hasHoneypotHit ? 1 : 0) + guessedLinkMargin(s);
  if ((s.pattern?.distinctLinksInBurst ?? 0) < pair) return undefined;
  const timing = f.seconds === undefined ? "timing:unknown" : "timing:delivery-window";
  return bot(f.gateway.family, `mx:${f.gateway.family}`, timing, "pattern:two-links-in-burst");
}

/** Across messages: one visitor working through many recipients' mail of several domains. */
function decideSpread(s: InteractionSignals, ctx: ClassifierContext): Decision {
  const x = s.spread;
  const t = ctx.thresholds;
  if (!x || x.recipients < t.spreadRecipients || x.domains < t.spreadDomains) return undefined;
  const reasons = ["across:many-recipients"];
  if (x.unopened >= t.spreadRecipients) reasons.push("across:never-opened");
  return bot("botnet", ...reasons);
}

function classifyOpen(s: InteractionSignals, f: Facts, ctx: ClassifierContext): BotVerdict {
  const declared = decideDeclared(f);
  if (declared) return declared;
  const kind = f.ua?.kind;
  if (kind === "gmail-prefetch") return bot("gmail-prefetch", "ua:gmail-prefetch");
  if (kind === "office-preflight") return bot("outlook-preflight", "ua:office-preflight");
  if (f.isHead) return bot(expectedScanner(f), "method:head");
  if (kind === "gmail-proxy" || kind === "yahoo-proxy") return human(`proxy:${kind}`);
  if (f.network?.role === "apple-egress") return bot("apple-mpp", "network:apple-egress", "action:open");
  if (kind === "bare-mozilla") return bot("apple-mpp", "ua:bare-mozilla");
  const rest =
    decideProbableNetwork(s, f, ctx) ??
    decideHoneypot(s, f, ctx) ??
    decideTiming(f, ctx);
  if (rest) return rest;
  // Every mail client and image proxy in the research sends a UA; an empty one is a script.
  if (f.isEmptyUa) return bot(expectedScanner(f), "ua:empty");
  if (f.network?.role === "mail-proxy-human") return human(`proxy:${f.network.family}`);
  if (f.network?.role === "google") return human("network:google");
  return human("no-bot-signal");
}

function classifyClick(s: InteractionSignals, f: Facts, ctx: ClassifierContext): BotVerdict {
  const declared = decideDeclared(f);
  if (declared) return declared;
  const kind = f.ua?.kind;
  if (kind === "office-preflight" || kind === "outlook-webview") {
    return bot("outlook-preflight", `ua:${kind}`, "action:click");
  }
  // The Office app's own fetch of the link; the person's click follows from the browser, with its UA.
  if (kind === "office-app") return bot("office-prefetch", "ua:office-app", "action:click");
  if (f.isHead) return bot(expectedScanner(f), "method:head");
  if (kind && NO_BROWSER_KINDS.has(kind)) return bot(f.ua?.family ?? "unknown-scanner", `ua:${kind}`, "action:click");
  // Google's and Exchange Online's service netblocks carry their image proxies and crawlers, not people's
  // browsers: a link fetched from them is the mail service checking it (Gmail's link checks, Safe Links).
  if (f.network && MAIL_SERVICE_ROLES.has(f.network.role)) return bot(f.network.family, `network:${f.network.family}`, "action:click");
  const rest =
    decidePattern(s, f, ctx) ??
    decideSpread(s, ctx) ??
    decideProbableNetwork(s, f, ctx) ??
    decideEarlyPair(s, f, ctx) ??
    decideGatewayPrior(f, ctx) ??
    decideCloudStaleBrowser(f) ??
    decideHoneypot(s, f, ctx) ??
    decideTiming(f, ctx);
  if (rest) return rest;
  if (f.isEmptyUa) return bot(expectedScanner(f), "ua:empty"); // browsers always send a UA: a bare request is a script
  // Internet Explorer (disabled on Windows 10 and 11 since February 2023; Edge's IE mode sends it only to listed
  // sites), or a Chrome its Windows never had, from anywhere at any time. Outlook's MSIE-token UAs matched above.
  const noBrowser = noBrowserUa(f);
  if (noBrowser) return bot(expectedScanner(f), noBrowser, "action:click");
  if (f.network?.role === "apple-egress") return human("network:apple-egress", "private-relay-click");
  return human("no-bot-signal");
}

/** Classifies one open or click. Pure: same signals and context always give the same verdict. */
export function classifyInteraction(signals: InteractionSignals, ctx: ClassifierContext): BotVerdict {
  const facts = collectFacts(signals, ctx);
  return signals.action === "open" ? classifyOpen(signals, facts, ctx) : classifyClick(signals, facts, ctx);
}

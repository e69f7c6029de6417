// Link scanners, each family and its parameters drawn from published descriptions (research notes
// shared/docs/bots-deliverability.md §1.2 and §3.4, and the vendor pages cited there), not from the
// detector's rules. A scan fetches some or all links of a message, sometimes the hidden link and the
// pixel, from the vendor's address space or, where no list is published, from cloud or hosting space.

import { declaredCrawler, windowsChrome } from "./agents.ts";
import { addressOf, type NetworkName } from "./facts.ts";
import type { Emit } from "./event.ts";
import type { Gateway, Message } from "./population.ts";
import type { Rand } from "./rng.ts";

interface ScanPlan {
  family: string;
  scenario: string;
  start: number;
  /** Seconds between fetches. */
  gap: () => number;
  links: number[];
  honeypot: boolean;
  ip: () => string;
  ua: string;
  headShare: number;
  pixelChance: number;
}

function scan(rand: Rand, p: ScanPlan): Emit[] {
  const out: Emit[] = [];
  const bot = { label: "bot" as const, family: p.family, scenario: p.scenario };
  let t = p.start;
  if (rand.chance(p.pixelChance)) out.push({ kind: "open", t, ip: p.ip(), ua: p.ua, ...bot });
  const honeypotAt = p.honeypot ? rand.int(0, p.links.length) : -1;
  p.links.forEach((link, i) => {
    if (i === honeypotAt) {
      out.push({ kind: "honeypot", t, ip: p.ip(), ua: p.ua, ...bot });
      t += p.gap();
    }
    out.push({ kind: "click", t, ip: p.ip(), ua: p.ua, link, method: rand.chance(p.headShare) ? "HEAD" : "GET", ...bot });
    t += p.gap();
  });
  if (honeypotAt === p.links.length) out.push({ kind: "honeypot", t, ip: p.ip(), ua: p.ua, ...bot });
  return out;
}

function allLinks(msg: Message): number[] {
  return Array.from({ length: msg.linkCount }, (_, i) => i);
}

/** "Often a single link" (the issue): one link, or a few of those without reputation. */
function someLinks(rand: Rand, msg: Message, singleShare: number): number[] {
  if (rand.chance(singleShare)) return [rand.int(0, msg.linkCount - 1)];
  const n = rand.int(2, Math.max(2, Math.ceil(msg.linkCount / 2)));
  const set = new Set<number>();
  while (set.size < n) set.add(rand.int(0, msg.linkCount - 1));
  return [...set].sort((a, b) => a - b);
}

/** A sandbox keeps one address for a scan, or rotates per fetch. */
function egress(rand: Rand, pool: NetworkName, rotateShare = 0.3): () => string {
  const fixed = addressOf(rand, pool);
  return rand.chance(rotateShare) ? () => addressOf(rand, pool) : () => fixed;
}

/**
 * Microsoft Defender Safe Links / Safe Attachments detonation: 0-90 s after delivery (emdash#3298:
 * 22 s), from EOP or Azure; stale Windows Chrome (64, 72, 97 seen) or no UA; HEAD in older reports;
 * all links or some; 5% re-crawl hours later (field notes, unverified).
 */
function safeLinks(rand: Rand, msg: Message): Emit[] {
  const ua = rand.chance(0.3) ? "" : windowsChrome(rand.int(64, 121));
  const fromAzure = rand.chance(0.4);
  const out = scan(rand, {
    family: "safe-links", scenario: fromAzure ? "detonation-azure" : "detonation-eop", start: rand.logUniform(3, 90),
    gap: () => rand.uniform(0.2, 3), links: rand.chance(0.5) ? allLinks(msg) : someLinks(rand, msg, 0.4),
    honeypot: rand.chance(0.5), ip: egress(rand, fromAzure ? "azure" : "eop"), ua, headShare: 0.2, pixelChance: 0.3,
  });
  if (rand.chance(0.05)) {
    out.push(...scan(rand, {
      family: "safe-links", scenario: "re-crawl", start: rand.uniform(3600, 86400), gap: () => rand.uniform(0.5, 5),
      links: someLinks(rand, msg, 0.6), honeypot: false, ip: egress(rand, "azure"), ua: ua || windowsChrome(rand.int(64, 121)),
      headShare: 0, pixelChance: 0,
    }));
  }
  return out;
}

interface GatewayProfile {
  /** Share of messages the gateway scans (research §3.4 trigger column). */
  rate: number;
  window: [number, number];
  singleShare: number;
  allShare: number;
  honeypot: number;
  /** The vendor's own space, and where the rest of its sandboxes egress. */
  pools: [NetworkName, number][];
  gap: [number, number];
}

/**
 * Research §3.4 and §1.2: Proofpoint TAP 5 s-5 min, subset; Mimecast URL Protect 2 s-2 min, all;
 * Barracuda Link Protection 1-30 s, all including unsubscribe; Cisco 5 s-3 min, subset; Trend Micro
 * and Sophos time-of-click rewriting with delivery-time checks, Sophos on AWS with non-static
 * addresses (docs.sophos.com DomainsPorts), Trend Micro with no list found.
 */
export const GATEWAYS: Record<Gateway, GatewayProfile> = {
  proofpoint: { rate: 0.7, window: [5, 300], singleShare: 0.5, allShare: 0.1, honeypot: 0.7, pools: [["proofpoint", 70], ["aws", 30]], gap: [0.3, 4] },
  mimecast: { rate: 0.6, window: [2, 120], singleShare: 0.4, allShare: 0.5, honeypot: 0.9, pools: [["mimecast", 60], ["aws", 40]], gap: [0.1, 2] },
  barracuda: { rate: 0.8, window: [1, 30], singleShare: 0.3, allShare: 0.6, honeypot: 0.95, pools: [["barracuda", 100]], gap: [0.1, 2] },
  cisco: { rate: 0.5, window: [5, 180], singleShare: 0.6, allShare: 0.1, honeypot: 0.5, pools: [["cisco", 50], ["hosting", 50]], gap: [0.3, 4] },
  "trend-micro": { rate: 0.5, window: [5, 180], singleShare: 0.6, allShare: 0.1, honeypot: 0.5, pools: [["aws", 50], ["hosting", 50]], gap: [0.3, 4] },
  sophos: { rate: 0.5, window: [1, 120], singleShare: 0.5, allShare: 0.2, honeypot: 0.5, pools: [["aws", 100]], gap: [0.2, 3] },
};

function gatewayScan(rand: Rand, msg: Message, gateway: Gateway): Emit[] {
  const g = GATEWAYS[gateway];
  const pool = rand.weighted(g.pools);
  const links = rand.chance(g.allShare) ? allLinks(msg) : someLinks(rand, msg, g.singleShare);
  return scan(rand, {
    family: gateway, scenario: `${gateway}-${pool}`, start: rand.uniform(g.window[0], g.window[1]),
    gap: () => rand.uniform(g.gap[0], g.gap[1]), links, honeypot: links.length > 1 && rand.chance(g.honeypot),
    ip: egress(rand, pool), ua: windowsChrome(rand.int(100, 136)), headShare: 0, pixelChance: 0.2,
  });
}

/**
 * Generic crawlers (link checkers, SEO/AI crawlers, forwarded-mail unfurls) from cloud and hosting
 * space at any time: most follow every link and the hidden one, some fetch a single link.
 */
function crawler(rand: Rand, msg: Message): Emit[] {
  const declared = rand.chance(0.5);
  return scan(rand, {
    family: "generic-crawler", scenario: declared ? "declared" : "browser-ua", start: rand.logUniform(60, 7 * 86400),
    gap: () => rand.uniform(0.05, 2), links: rand.chance(0.15) ? [rand.int(0, msg.linkCount - 1)] : allLinks(msg),
    honeypot: rand.chance(0.8), ip: egress(rand, rand.pick(["aws", "hosting"] as const), 0.5),
    ua: declared ? declaredCrawler(rand) : windowsChrome(rand.int(110, 136)), headShare: 0.1, pixelChance: 0.1,
  });
}

/** Every scanner's events for one message. */
export function scannerEvents(rand: Rand, msg: Message): Emit[] {
  const org = msg.recipient.org;
  const out: Emit[] = [];
  if (org.provider in GATEWAYS) {
    const gateway = org.provider as Gateway;
    if (rand.chance(GATEWAYS[gateway].rate)) out.push(...gatewayScan(rand, msg, gateway));
  }
  // Safe Links detonates only links without a known reputation (safe-links-about.md): not every message.
  if (org.hasSafeLinks && rand.chance(0.35)) out.push(...safeLinks(rand, msg));
  if (rand.chance(0.01)) out.push(...crawler(rand, msg));
  return out;
}

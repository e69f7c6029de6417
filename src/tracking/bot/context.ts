// Compiles the signature data (IP ranges, UA patterns, MX suffixes, thresholds) into the lookup
// structures the classifier reads. Build once at startup and share; the result is immutable.

import { createIpRangeMatcher, parseCidr, type IpRangeMatcher } from "./cidr.ts";
import { CLOUD_RANGES } from "./data/cloud-ranges.ts";
import { CRAWLER_RANGES } from "./data/crawler-ranges.ts";
import { GATEWAY_RANGES, GATEWAY_SPACE_OBSERVED } from "./data/gateway-ranges.ts";
import { NETWORK_RANGES, type NetworkRangeSet, type NetworkRole } from "./data/ip-ranges.ts";
import { MAIL_NETBLOCKS } from "./data/mail-netblocks.ts";
import { MX_GATEWAYS, type MxRole } from "./data/mx-gateways.ts";
import { DEFAULT_STALE_CHROME_BELOW_MAJOR, UA_PATTERNS, type UaKind } from "./data/ua-patterns.ts";
import { burstOnlyClient } from "./pattern.ts";
import type { ClassifierThresholds } from "./types.ts";

export interface NetworkMatch {
  family: string;
  role: NetworkRole;
}

export interface UaMatch {
  kind: UaKind;
  family: string;
}

export interface MxMatch {
  family: string;
  role: MxRole;
  /** The gateway's documented delivery-to-scan delay, when known (data/mx-gateways.ts). */
  scanSeconds?: number;
  /** The cloud the mailbox provider's own link checks come from (data/mx-gateways.ts). */
  checksFrom?: string;
}

export interface ClassifierContext {
  readonly networks: IpRangeMatcher<NetworkMatch>;
  readonly thresholds: Readonly<ClassifierThresholds>;
  matchUserAgent(userAgent: string): UaMatch | undefined;
  matchMx(mxHosts: readonly string[]): MxMatch | undefined;
  /** A gateway vendor's documented delivery-to-scan delay by family (data/mx-gateways.ts), if any. */
  scanSecondsOf(family: string): number | undefined;
  /**
   * Which clients a fetch belongs to, for the per-message patterns: its UA (pattern.ts has why not
   * the IP alone) and, from a security vendor's network (role `scanner` or `scanner-probable`), the
   * vendor too, whatever UA each fetch sends: those sandboxes spread one message's fetches over many
   * addresses and user agents (Proofpoint: mautic#9798). From cloud space, the address too: a sandbox
   * there may send a new UA with each fetch (Defender's several pinned Chrome builds, gophish#2446);
   * and the provider's space, for the second and the burst only (pattern.ts, burstOnlyClient).
   * The pattern is the widest of them.
   */
  clientsOf(ip: string, userAgent: string): string[];
  /** The security vendor whose network (role `scanner` or `scanner-probable`) `ip` is in, if any. */
  vendorOf(ip: string): string | undefined;
  /** Where a sandbox may fetch from: a security vendor's network, or else cloud space (AWS, Azure, Google Cloud); one look-up. */
  spaceOf(ip: string): { vendor?: string; cloud?: string };
}

const VENDOR_ROLES = new Set(["scanner", "scanner-probable"]);

export interface ClassifierOptions {
  /** Ranges added to (and, being inserted later, overriding on equal prefixes) the shipped ones. */
  extraRanges?: readonly NetworkRangeSet[];
  /** Drop the shipped ranges, e.g. when a refreshed full set is passed in extraRanges. */
  omitBuiltinRanges?: boolean;
  thresholds?: Partial<ClassifierThresholds>;
}

export const DEFAULT_THRESHOLDS: Readonly<ClassifierThresholds> = Object.freeze({
  // Mautic's default is 2 s and Collie's 1.5 s; nobody opens, reads and clicks faster.
  instantSeconds: 2,
  // Defender detonates 0-90 s after delivery (emdash-cms/emdash#3298 saw 22 s); margin to 120 s.
  scanWindowSeconds: 120,
  // Proofpoint TAP 5 s-5 min, Mimecast 2 s-2 min, Cisco 5 s-3 min; isolation clicks come later.
  probableNetworkWindowSeconds: 300,
  // Same bound: every delivery-time sandbox in the research has finished by 5 minutes.
  honeypotWindowSeconds: 300,
  // Gateways scan at delivery, "within seconds" (Mimecast 2 s-2 min, TAP from 5 s); a minute keeps
  // people behind a gateway who read at once from cloud desktops or cloud egress out of it.
  gatewayCloudWindowSeconds: 60,
  linksInSecond: 2,
  // autoemails' "Leo" rule: >= 3 unique links in < 2 s; we allow 5 s for scanner jitter.
  linksInBurst: 3,
  // CustomerMinds flags "clicked every link" from 3 links; 4 keeps fast three-link readers human.
  allLinksMinimum: 4,
  // One (ip, UA) clicking three recipients' mail of two or more domains within 30 minutes: a list
  // being worked through. Two stays human (a shared phone, two subscribers behind one carrier NAT
  // with the same iOS build); one domain stays human (colleagues behind their office NAT).
  spreadRecipients: 3,
  spreadDomains: 2,
  staleChromeBelowMajor: DEFAULT_STALE_CHROME_BELOW_MAJOR,
});

/** UAs repeat heavily (a handful of scanner and client strings), so memoising is a big win. */
const UA_CACHE_MAX_ENTRIES = 4096;

function compileUaMatcher(): (userAgent: string) => UaMatch | undefined {
  const cache = new Map<string, UaMatch | null>();
  return (userAgent) => {
    const cached = cache.get(userAgent);
    if (cached !== undefined) return cached ?? undefined;
    let found: UaMatch | null = null;
    for (const p of UA_PATTERNS) {
      if (p.pattern.test(userAgent)) {
        found = { kind: p.kind, family: p.family };
        break;
      }
    }
    if (cache.size >= UA_CACHE_MAX_ENTRIES) cache.clear();
    cache.set(userAgent, found);
    return found ?? undefined;
  };
}

function normaliseHost(host: string): string {
  const lower = host.trim().toLowerCase();
  return lower.endsWith(".") ? lower.slice(0, -1) : lower;
}

function compileMxMatcher(): (mxHosts: readonly string[]) => MxMatch | undefined {
  const bySuffix = new Map<string, MxMatch>();
  for (const { suffix, source: _, ...match } of MX_GATEWAYS) bySuffix.set(suffix, match);
  const matchHost = (host: string): MxMatch | undefined => {
    let rest = normaliseHost(host);
    while (rest.length > 0) {
      const hit = bySuffix.get(rest);
      if (hit) return hit;
      const dot = rest.indexOf(".");
      if (dot < 0) return undefined;
      rest = rest.slice(dot + 1);
    }
    return undefined;
  };
  // A gateway anywhere in the MX set wins over a mailbox: mail may pass through it.
  return (mxHosts) => {
    let mailbox: MxMatch | undefined;
    for (const host of mxHosts) {
      const hit = matchHost(host);
      if (hit && hit.role !== "mailbox") return hit;
      mailbox ??= hit;
    }
    return mailbox;
  };
}

function* rangeEntries(sets: readonly NetworkRangeSet[]): Generator<readonly [string, NetworkMatch]> {
  for (const set of sets) {
    const match: NetworkMatch = { family: set.family, role: set.role };
    for (const cidr of set.cidrs) yield [cidr, match];
  }
}

/** Builds a classifier context from the shipped data plus options; throws on malformed data. */
export function createClassifierContext(options: ClassifierOptions = {}): ClassifierContext {
  // Cloud space first: a vendor range inside it (Barracuda EGD sits in AWS) is more specific and wins.
  const builtin = options.omitBuiltinRanges
    ? []
    : [...CLOUD_RANGES, ...NETWORK_RANGES, ...GATEWAY_RANGES, ...GATEWAY_SPACE_OBSERVED, ...MAIL_NETBLOCKS, ...CRAWLER_RANGES];
  const sets = [...builtin, ...(options.extraRanges ?? [])];
  const scanSeconds = new Map(MX_GATEWAYS.flatMap((g) => (g.scanSeconds ? [[g.family, g.scanSeconds] as const] : [])));
  const networks = createIpRangeMatcher(rangeEntries(sets));
  const spaceOf = (ip: string): { vendor?: string; cloud?: string } => {
    const network = ip ? networks.lookup(ip) : undefined;
    if (network && VENDOR_ROLES.has(network.role)) return { vendor: network.family };
    return network?.role === "cloud" ? { cloud: network.family } : {};
  };
  return {
    networks,
    thresholds: Object.freeze({ ...DEFAULT_THRESHOLDS, ...options.thresholds }),
    matchUserAgent: compileUaMatcher(),
    matchMx: compileMxMatcher(),
    scanSecondsOf: (family) => scanSeconds.get(family),
    clientsOf(ip, userAgent) {
      const space = spaceOf(ip);
      if (space.vendor) return [userAgent, `\u0000net:${space.vendor}`];
      // One address in cloud space is one sandbox whatever UA it sends (people there each have their own
      // recipient, so colleagues on one desktop pool are not counted together).
      if (space.cloud) return [userAgent, `\u0000ip:${ip}`, burstOnlyClient(space.cloud)];
      return [userAgent];
    },
    vendorOf: (ip) => spaceOf(ip).vendor,
    spaceOf,
  };
}

/**
 * Extracts prefixes from a published range list (Apple's egress CSV: prefix in the first column;
 * plain one-per-line lists work too). Bad lines are returned, not thrown: the file is external.
 */
export function parseRangeList(text: string): { cidrs: string[]; rejected: string[] } {
  const cidrs: string[] = [];
  const rejected: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const first = (line.split(",")[0] ?? "").trim();
    if (parseCidr(first)) cidrs.push(first);
    else rejected.push(line);
  }
  return { cidrs, rejected };
}

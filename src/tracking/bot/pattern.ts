// Per-message interaction memory that turns a stream of clicks into the pattern signals the
// classifier reads (several links in one second, bursts, every link). Keyed by message, recipient
// and user agent, not by IP, because a scanner's requests for one message come from many addresses
// but with one UA; the UA keeps a person's click apart from a scanner fetching the same message's
// links a few seconds earlier (a person reading at once behind a gateway, issue #38).

import type { InteractionPattern } from "./types.ts";

export interface TrackedInteraction {
  messageId: string;
  /** Distinguishes recipients when one message id is shared (e.g. a campaign-wide id). */
  recipientId?: string;
  action: "open" | "click" | "honeypot";
  /** Link identity for clicks (URL or link index); ignored for opens. */
  linkId?: string;
  /** Tracked links in the message, if known; passed through to the pattern. */
  linkCount?: number;
  /** The client's user agent: one client's fetches make a pattern, not every client's together. */
  userAgent?: string;
}

export interface InteractionTrackerOptions {
  /** Clock in epoch milliseconds. */
  now: () => number;
  /** Pattern window; history older than this is forgotten. Default 60 s. */
  windowMs?: number;
  /** Burst window. Default 5 s. */
  burstMs?: number;
  /** Upper bound on tracked messages; least recently touched are dropped first. Default 50,000. */
  maxMessages?: number;
}

export interface InteractionTracker {
  /** Records the interaction at now() and returns the pattern it completes (itself included). */
  record(interaction: TrackedInteraction): InteractionPattern;
  /** Number of messages with live history. */
  readonly size: number;
}

/** Link id under which honeypot hits are counted: a crawler's honeypot hit is one more link. */
export const HONEYPOT_LINK_ID = "\u0000honeypot";
const DEFAULT_WINDOW_MS = 60_000;
const DEFAULT_BURST_MS = 5_000;
const SECOND_MS = 1_000;
const DEFAULT_MAX_MESSAGES = 50_000;
/** A crawler hitting one message thousands of times must not grow memory without bound. */
const MAX_HITS_PER_MESSAGE = 256;

interface Hit {
  at: number;
  link: string;
}

interface MessageHistory {
  hits: Hit[];
  lastSeen: number;
}

function countDistinct(hits: readonly Hit[], since: number): number {
  const links = new Set<string>();
  for (let i = hits.length - 1; i >= 0; i--) {
    const hit = hits[i];
    if (!hit || hit.at < since) break;
    links.add(hit.link);
  }
  return links.size;
}

/** Creates a tracker with bounded memory; history expires after the pattern window. */
export function createInteractionTracker(options: InteractionTrackerOptions): InteractionTracker {
  const windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
  const burstMs = options.burstMs ?? DEFAULT_BURST_MS;
  const maxMessages = options.maxMessages ?? DEFAULT_MAX_MESSAGES;
  const { now } = options;
  // Re-inserted on every touch, so the head of the map is always the stalest message.
  const histories = new Map<string, MessageHistory>();

  const evict = (at: number): void => {
    for (const [key, history] of histories) {
      if (history.lastSeen >= at - windowMs && histories.size <= maxMessages) break;
      histories.delete(key);
    }
  };

  const linkOf = (i: TrackedInteraction): string | undefined => {
    if (i.action === "honeypot") return HONEYPOT_LINK_ID;
    if (i.action === "click") return i.linkId ?? "";
    return undefined;
  };

  return {
    record(interaction) {
      const at = now();
      const key = `${interaction.messageId}\u0000${interaction.recipientId ?? ""}\u0000${interaction.userAgent ?? ""}`;
      const history = histories.get(key) ?? { hits: [], lastSeen: at };
      histories.delete(key);
      histories.set(key, history);
      history.lastSeen = at;
      const firstLive = history.hits.findIndex((h) => h.at >= at - windowMs);
      history.hits.splice(0, firstLive < 0 ? history.hits.length : firstLive);
      const link = linkOf(interaction);
      if (link !== undefined) history.hits.push({ at, link });
      if (history.hits.length > MAX_HITS_PER_MESSAGE) history.hits.shift();
      evict(at);
      const pattern: InteractionPattern = {
        distinctLinksInSecond: countDistinct(history.hits, at - SECOND_MS),
        distinctLinksInBurst: countDistinct(history.hits, at - burstMs),
        distinctLinksInWindow: countDistinct(history.hits, at - windowMs),
      };
      if (interaction.linkCount !== undefined) pattern.linkCount = interaction.linkCount;
      return pattern;
    },
    get size() {
      return histories.size;
    },
  };
}

/**
 * A client counted for one second and the burst only: one cloud provider's space, whatever address
 * and UA each fetch sends. A sandbox there spreads one message's fetches over many addresses and
 * pinned Chrome builds (Defender's detonation: gophish#2446, emdash-cms/emdash#3298), so no address or
 * UA joins them; a person on a cloud desktop has one address, and clicks three links in five seconds
 * from three of the provider's addresses never. Over the whole window a person on a desktop there who
 * reads at once would be counted with the sandbox's fetches of the links a minute earlier: not counted.
 */
const BURST_ONLY = "\u0000burst:";
export const burstOnlyClient = (space: string) => `${BURST_ONLY}${space}`;
const isBurstOnly = (client: string | undefined) => client?.startsWith(BURST_ONLY) ?? false;

/**
 * The widest of one fetch's patterns, one per client it belongs to (ClassifierContext.clientsOf);
 * `clients[i]` names the client of `patterns[i]`, and a burst-only one widens no window count.
 */
export function widestPattern(patterns: readonly InteractionPattern[], clients: readonly string[] = []): InteractionPattern {
  const [first, ...rest] = patterns;
  const out: InteractionPattern = { ...first! };
  rest.forEach((p, i) => {
    out.distinctLinksInSecond = Math.max(out.distinctLinksInSecond, p.distinctLinksInSecond);
    out.distinctLinksInBurst = Math.max(out.distinctLinksInBurst, p.distinctLinksInBurst);
    if (!isBurstOnly(clients[i + 1])) out.distinctLinksInWindow = Math.max(out.distinctLinksInWindow, p.distinctLinksInWindow);
  });
  return out;
}

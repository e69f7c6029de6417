// The stateful side of bot detection shared by the tracking endpoints and the native bot API:
// honeypot memory and per-message interaction patterns, kept in the zone's store so every node of
// the zone sees them (bot/shared-memory.ts), and cached MX look-ups (only a cache: in memory)
// around the pure classifier.
import type { Resolver } from "../dns.ts";
import type { Store } from "../core/store-port.ts";
import { classifyInteraction, createClassifierContext, type BotVerdict } from "./bot/index.ts";
import { createSharedBotMemory, type Recall } from "./bot/shared-memory.ts";

const MX_CACHE_MS = 3_600_000;
/** A failed look-up (SERVFAIL, a resolver's own timeout) is asked again this soon, not after an hour. */
const MX_FAILED_CACHE_MS = 60_000;
/** How long one interaction waits for its domain's MX; the look-up goes on and fills the cache for the next. */
const MX_TIMEOUT_MS = 2_000;
/** Look-ups in flight at once (a batch names up to 500 domains): more wait for none and go unjudged by MX. */
const MAX_MX_IN_FLIGHT = 5_000;

export interface Interaction {
  /** The zone of the sending domain: its store holds the memory this interaction is judged with. */
  zone: string;
  ip: string;
  userAgent: string;
  action: "open" | "click";
  method?: string;
  /** Recipient domain: its MX reveals the security gateway in front of the mailbox. */
  domain?: string;
  messageId?: string;
  recipientId?: string;
  linkId?: string;
  /** The link is the caller's guess (the bot API's second of a click), not the link clicked: see InteractionPattern.linksInferred. */
  isLinkInferred?: boolean;
  /** Interaction and delivery times in ms, when known. */
  at?: number;
  deliveredAt?: number;
  /** The sending domain, when `messageId` may name one of its messages in the zone's store. */
  sendingDomain?: string;
}

export function createBotDetector(deps: { resolver: Resolver; now: () => number; store: Store }) {
  const context = createClassifierContext();
  const memory = createSharedBotMemory({ now: deps.now });
  const mxCache = new Map<string, { hosts: string[]; at: number; ttl: number }>();
  /** The zone's store when this node serves it; a zone served elsewhere has no memory here. */
  const zoneStore = (zone: string) => (deps.store.zoneNames().includes(zone) ? deps.store.zone(zone) : null);

  const inFlight = new Map<string, Promise<string[] | undefined>>();
  const overdue = new Set<string>();

  /** The domain's MX hosts, most preferred first; undefined when not known in time. A slow answer is not cached as
   *  "no MX": the look-up finishes in the background and the domain's next interaction has it. */
  async function mxHosts(domain: string): Promise<string[] | undefined> {
    const hit = mxCache.get(domain);
    if (hit && deps.now() - hit.at < hit.ttl) return hit.hosts;
    // A look-up that already kept one interaction waiting keeps no other: a batch of hundreds judged one by one
    // behind a dead resolver would otherwise wait MX_TIMEOUT_MS for each.
    if (overdue.has(domain)) return undefined;
    let lookup = inFlight.get(domain);
    if (!lookup) {
      if (inFlight.size >= MAX_MX_IN_FLIGHT) return undefined;
      lookup = deps.resolver.mx(domain).then(
        (mx) => remember(domain, mx.sort((a, b) => a.priority - b.priority).map((m) => m.exchange.toLowerCase()), MX_CACHE_MS),
        () => remember(domain, [], MX_FAILED_CACHE_MS),
      ).finally(() => { inFlight.delete(domain); overdue.delete(domain); });
      inFlight.set(domain, lookup);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<undefined>((r) => { timer = setTimeout(() => { if (inFlight.has(domain)) overdue.add(domain); r(undefined); }, MX_TIMEOUT_MS); });
    return Promise.race([lookup, timeout]).finally(() => clearTimeout(timer));
  }

  function remember(domain: string, hosts: string[], ttl: number): string[] {
    if (mxCache.size > 50_000) mxCache.clear();
    mxCache.set(domain, { hosts, at: deps.now(), ttl });
    return hosts;
  }

  /**
   * Without a delivery time, a message of the sending domain found in the zone's store is dated by
   * its delivery, or else its accept time: delivery comes after accept, so a click seconds after
   * accept is seconds after delivery too. An id the store does not hold leaves the click undated.
   */
  async function datedBy(zone: ReturnType<Store["zone"]> | null, i: Interaction): Promise<number | undefined> {
    if (i.deliveredAt !== undefined || !zone || !i.messageId || !i.sendingDomain) return i.deliveredAt;
    const message = await zone.getMessageHead(i.messageId).catch(() => null);
    if (!message || message.domain !== i.sendingDomain) return undefined;
    const rcpt = i.recipientId ? await zone.getRecipient(i.recipientId).catch(() => null) : null;
    return rcpt && rcpt.messageId === message.id && rcpt.status === "delivered" ? rcpt.updatedAt : message.createdAt;
  }

  return {
    /** The clients one fetch belongs to (its UA, and a vendor's network): what a batch's look-ahead groups by. */
    clientsOf: (ip: string, userAgent: string) => context.clientsOf(ip, userAgent),
    /** Where a gateway's check of a link may come from: a security vendor's network, or cloud space (AWS, Azure) where their sandboxes run. */
    checkSpaceOf: (ip: string) => context.spaceOf(ip),
    /** Looks up the MX of these recipient domains at once, as many as a batch holds (it is then judged one event at a time, from the cache). */
    async prefetchMx(domains: Iterable<string>) {
      await Promise.all([...new Set(domains)].filter((d) => d).slice(0, 500).map(mxHosts));
    },
    /**
     * Remembers a honeypot visitor for 30 minutes in the zone of `domain` (the sending domain its
     * link names) and counts the hit as one more link of its message. A domain not served here
     * is not ours to remember for.
     */
    async honeypotHit(ip: string, userAgent: string, domain: string, messageId?: string) {
      const d = await deps.store.control.getDomain(domain);
      const zone = d && zoneStore(d.zone);
      if (zone) await memory.honeypotHit(zone, ip, userAgent, messageId, context.clientsOf(ip, userAgent));
    },
    async classify(i: Interaction): Promise<BotVerdict> {
      const at = i.at ?? deps.now();
      const zone = zoneStore(i.zone);
      const link = i.action === "click" ? i.linkId ?? i.action : null;
      const [recalled, mx, deliveredAt] = await Promise.all([
        zone ? memory.recall(zone, { ip: i.ip, userAgent: i.userAgent, messageId: i.messageId, recipientId: i.recipientId, domain: i.domain, link, at,
          clients: context.clientsOf(i.ip, i.userAgent) }) : ({ hasHoneypotHit: false } as Recall),
        i.domain ? mxHosts(i.domain) : undefined,
        datedBy(zone, i),
      ]);
      return classifyInteraction({
        ip: i.ip, userAgent: i.userAgent, action: i.action, method: i.method,
        secondsSinceDelivery: deliveredAt !== undefined ? Math.max(0, (at - deliveredAt) / 1000) : undefined,
        mxHosts: mx, hasHoneypotHit: recalled.hasHoneypotHit,
        pattern: recalled.pattern && i.isLinkInferred ? { ...recalled.pattern, linksInferred: true } : recalled.pattern,
        ...(recalled.spread ? { spread: recalled.spread, wasOpened: recalled.wasOpened } : {}),
      }, context);
    },
  };
}

export type BotDetector = ReturnType<typeof createBotDetector>;

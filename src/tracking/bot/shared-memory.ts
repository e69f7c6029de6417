// The stateful signals of bot detection kept in the zone's store (BotMemoryStore), so every node
// of a zone sees them: a honeypot visitor (ip and user agent) is known for 30 minutes, and a
// message's clicks make its pattern (distinct links within a second, a burst, the window). Keys
// are hashes of what visitors send, so a row costs the same whatever a request carries (the
// honeypot link takes unauthenticated hits; a user agent can be kilobytes long). Asking is one
// read of the store per classification; old rows are pruned every few hundred writes. Across
// messages (spread.ts has the why), opens mark their message opened for 7 days and each visitor's
// clicks (recipient and domain) are kept for the 30-minute spread window.
import type { ZoneStore } from "../../core/store-port.ts";
import { HONEYPOT_TTL_MS } from "./honeypot.ts";
import { HONEYPOT_LINK_ID, widestPattern } from "./pattern.ts";
import { OPENED_TTL_MS, SPREAD_WINDOW_MS } from "./spread.ts";
import type { InteractionPattern, SpreadPattern } from "./types.ts";

const SECOND_MS = 1_000;
const BURST_MS = 5_000;
const WINDOW_MS = 60_000;
/** A crawler hitting one message thousands of times stores no more than this within the window. */
const MAX_PER_MESSAGE = 256;
/** Bounds of the zone's memory: visitors and interaction rows (newest kept). */
const MAX_VISITORS = 100_000;
const MAX_INTERACTIONS = 500_000;
/** Across messages: clicks kept per visitor in the spread window, and bounds of both tables. */
const MAX_PER_VISITOR = 256;
const MAX_SPREAD = 500_000;
const MAX_OPENED = 1_000_000;
const PRUNE_EVERY_WRITES = 256;
/** How late an interaction may be read (a caller's batch of the bot API) and still meet its windows' rows. */
const LATE_MS = 15 * 60_000;
/** IPs longer than this are not addresses; they are cut before hashing. */
const MAX_IP_CHARS = 64;

/** A 128-bit hash of `parts` (NUL-separated), as base64: fixed size, and no NUL for PostgreSQL's text. */
const hash = (...parts: string[]) => new Bun.CryptoHasher("sha256").update(parts.join("\u0000")).digest("base64").slice(0, 22);
const visitorKey = (ip: string, userAgent: string) => hash(ip.slice(0, MAX_IP_CHARS), userAgent);
const messageKey = (messageId: string, recipientId?: string) => hash(messageId, recipientId ?? "");
/** One client's fetches of one message: a person's click is not counted with a scanner's (pattern.ts has the why). */
const patternKey = (messageId: string, recipientId: string | undefined, userAgent: string) => hash(messageId, recipientId ?? "", userAgent);
/** A hit on a message's hidden link, kept per visitor (ip and UA): it joins only that visitor's own patterns of the message. */
const hiddenLinkKey = (messageId: string, ip: string, userAgent: string) => hash(messageId, "\u0000hidden", ip.slice(0, MAX_IP_CHARS), userAgent);
/** The same, kept for a client that is a vendor's network (any of its addresses and UAs). */
const clientHiddenLinkKey = (messageId: string, client: string) => hash(messageId, "\u0000hidden-client", client);

/**
 * One interaction asked of the memory. `clients` are the clients its fetch belongs to (the
 * classifier context's `clientsOf`: its UA, and a vendor's network as one client); the pattern is
 * the widest of theirs. Without it, the client is the UA.
 */
export interface RecallOf {
  ip: string; userAgent: string; messageId?: string; recipientId?: string; domain?: string; link: string | null; at?: number;
  clients?: readonly string[];
}

export interface Recall { hasHoneypotHit: boolean; pattern?: InteractionPattern; wasOpened?: boolean; spread?: SpreadPattern }

export function createSharedBotMemory(deps: { now: () => number }) {
  let writes = 0;
  /** Counts a write; every PRUNE_EVERY_WRITES, prunes the zone in the background (a failure only delays it). */
  function wrote(zone: ZoneStore, now: number) {
    if (++writes % PRUNE_EVERY_WRITES !== 0) return;
    zone.pruneBotMemory(now, now - WINDOW_MS - LATE_MS, { visitors: MAX_VISITORS, interactions: MAX_INTERACTIONS, spread: MAX_SPREAD, opened: MAX_OPENED },
      { spread: now - SPREAD_WINDOW_MS - LATE_MS, opened: now - OPENED_TTL_MS }).catch(() => {});
  }

  /**
   * `domain` is the recipient's; with it, an open marks the message opened and a click is counted
   * in its visitor's spread (the honeypot's own recall passes none). `at` is when the interaction
   * happened, when the caller knows (the bot API's `ts`): its windows are counted back from there,
   * so a batch read at once is judged as its clicks came, not as one burst.
   */
  async function recall(zone: ZoneStore, i: RecallOf): Promise<Recall> {
    const now = i.at ?? deps.now();
    const key = i.messageId !== undefined ? messageKey(i.messageId, i.recipientId) : null;
    const link = key !== null && i.link !== null ? hash(i.link) : null;
    const across = key !== null && i.domain !== undefined
      ? { recipient: hash(i.recipientId ?? i.messageId ?? ""), domain: hash(i.domain.toLowerCase()), since: now - SPREAD_WINDOW_MS,
          openedSince: now - OPENED_TTL_MS, maxPerVisitor: MAX_PER_VISITOR }
      : undefined;
    // The hidden link names only the message: its hit is kept per visitor (ip and UA, another recipient
    // or a scanner with the same browser is not this client) and counted with that visitor's patterns of
    // the message, whatever recipient they name.
    const isHiddenLink = i.link === HONEYPOT_LINK_ID;
    const pattern = i.messageId === undefined ? null
      : isHiddenLink ? hiddenLinkKey(i.messageId, i.ip, i.userAgent) : patternKey(i.messageId, i.recipientId, i.userAgent);
    const honeypotRow = i.messageId !== undefined && !isHiddenLink
      ? { patternKey: hiddenLinkKey(i.messageId, i.ip, i.userAgent), link: hash(HONEYPOT_LINK_ID) } : undefined;
    const since = { second: now - SECOND_MS, burst: now - BURST_MS, window: now - WINDOW_MS };
    const visitor = visitorKey(i.ip, i.userAgent);
    const r = await zone.recallInteraction({ visitor, messageKey: key, patternKey: pattern, link, now,
      ...(honeypotRow ? { honeypotRow } : {}), since, maxPerMessage: MAX_PER_MESSAGE, ...(across ? { across } : {}) });
    // Pruned back from the interaction's own time when it is earlier (a caller replaying last week's
    // events): from the wall clock, every row of such a batch would be older than the windows it fills.
    if (link !== null || across) wrote(zone, Math.min(deps.now(), now));
    if (key === null) return { hasHoneypotHit: r.honeypot };
    const patterns = [r];
    const clients = [i.userAgent];
    // The fetch's other clients (a vendor's network, a cloud address and its space): one more row and read each.
    for (const client of i.clients ?? []) {
      if (client === i.userAgent || i.messageId === undefined) continue;
      const hidden = clientHiddenLinkKey(i.messageId, client);
      clients.push(client);
      patterns.push(await zone.recallInteraction({ visitor, messageKey: key, link, now, since, maxPerMessage: MAX_PER_MESSAGE,
        ...(isHiddenLink ? { patternKey: hidden } : { patternKey: patternKey(i.messageId, i.recipientId, client), honeypotRow: { patternKey: hidden, link: hash(HONEYPOT_LINK_ID) } }) }));
    }
    const out: Recall = { hasHoneypotHit: r.honeypot, pattern: widestPattern(patterns.map((p) => (
      { distinctLinksInSecond: p.linksInSecond, distinctLinksInBurst: p.linksInBurst, distinctLinksInWindow: p.linksInWindow })), clients) };
    if (across && link !== null) {
      out.wasOpened = r.wasOpened;
      out.spread = { recipients: r.recipients, domains: r.domains, unopened: r.unopened };
    }
    return out;
  }

  return {
    /** Remembers a honeypot visitor for 30 minutes; with its message, the hit is one more link of that message. */
    async honeypotHit(zone: ZoneStore, ip: string, userAgent: string, messageId?: string, clients?: readonly string[]) {
      const now = deps.now();
      await zone.rememberHoneypotHit(visitorKey(ip, userAgent), now + HONEYPOT_TTL_MS);
      wrote(zone, now);
      if (messageId !== undefined) await recall(zone, { ip, userAgent, messageId, link: HONEYPOT_LINK_ID, ...(clients ? { clients } : {}) });
    },
    /** Whether this visitor hit a honeypot, and (with a message) the pattern this interaction completes; `link` null for an open. */
    recall,
  };
}

// Across messages: what one visitor (ip and user agent) clicked within the spread window, for
// the offline replay (test/fixtures/bots, bench/bot-eval.ts); a running server keeps the same
// memory in the zone's store (shared-memory.ts). A botnet node working through a harvested list
// clicks many recipients' mail, of many domains, without ever fetching their open pixel. A
// corporate NAT also shows many recipients behind one address, but of one domain, and a shared
// inbox is one recipient; so recipients and their domains are counted apart.

import type { SpreadPattern } from "./types.ts";

/** Half an hour: a node's list of 5-20 links is worked through well within it (issue #33). */
export const SPREAD_WINDOW_MS = 30 * 60_000;
/** How long an open marks its message as opened (a person clicks within days of opening). */
export const OPENED_TTL_MS = 7 * 86_400_000;

export interface SpreadClick {
  ip: string;
  userAgent: string;
  messageId: string;
  recipientId?: string;
  /** Recipient's domain; unknown domains count as one shared domain. */
  domain?: string;
}

export interface SpreadTrackerOptions {
  now: () => number;
  windowMs?: number;
  /** Bounds: visitors with live history and remembered opened messages (oldest dropped first). */
  maxVisitors?: number;
  maxOpened?: number;
}

interface Click { at: number; recipient: string; domain: string; isUnopened: boolean }

export interface SpreadTracker {
  /** Marks the message as opened (by anyone: the pixel was fetched). */
  open(messageId: string, recipientId?: string): void;
  /** Whether the message had an open within OPENED_TTL_MS before now(). */
  wasOpened(messageId: string, recipientId?: string): boolean;
  /** Records a click at now() and returns the visitor's spread in the window, this click included. */
  click(c: SpreadClick): SpreadPattern;
  readonly size: number;
}

/** A visitor's distinct recipients, domains and never-opened recipients among `clicks`. */
export function spreadOf(clicks: readonly Click[]): SpreadPattern {
  const recipients = new Set<string>();
  const domains = new Set<string>();
  const unopened = new Set<string>();
  for (const c of clicks) {
    recipients.add(c.recipient);
    domains.add(c.domain);
    if (c.isUnopened) unopened.add(c.recipient);
  }
  return { recipients: recipients.size, domains: domains.size, unopened: unopened.size };
}

/** Touches `key` in an insertion-ordered map (most recent last) and drops the oldest beyond `max`. */
function touch<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  for (const k of map.keys()) {
    if (map.size <= max) break;
    map.delete(k);
  }
}

export function createSpreadTracker(options: SpreadTrackerOptions): SpreadTracker {
  const windowMs = options.windowMs ?? SPREAD_WINDOW_MS;
  const maxVisitors = options.maxVisitors ?? 100_000;
  const maxOpened = options.maxOpened ?? 500_000;
  const opened = new Map<string, number>();
  const visitors = new Map<string, Click[]>();
  const messageKey = (messageId: string, recipientId?: string) => `${messageId}\u0000${recipientId ?? ""}`;
  return {
    open(messageId, recipientId) {
      touch(opened, messageKey(messageId, recipientId), options.now(), maxOpened);
    },
    wasOpened(messageId, recipientId) {
      const at = opened.get(messageKey(messageId, recipientId));
      return at !== undefined && at >= options.now() - OPENED_TTL_MS;
    },
    click(c) {
      const at = options.now();
      const key = `${c.ip}\u0000${c.userAgent}`;
      const openedAt = opened.get(messageKey(c.messageId, c.recipientId));
      const isUnopened = openedAt === undefined || openedAt < at - OPENED_TTL_MS;
      const live = (visitors.get(key) ?? []).filter((x) => x.at >= at - windowMs).slice(-255);
      live.push({ at, recipient: c.recipientId ?? c.messageId, domain: c.domain ?? "", isUnopened });
      touch(visitors, key, live, maxVisitors);
      return spreadOf(live);
    },
    get size() {
      return visitors.size;
    },
  };
}

// The queue by destination key (the recipient domain): the keys with waiting mail, a claim that
// starts at the keys whose destination has room and reads only the rows it takes, and the
// destinations' state each node's scheduler publishes for `postern queue destinations`, the
// console and /metrics. Part of the storage port (store-port.ts, ZoneStore).
import type { StoredRecipient } from "./records.ts";

/** A claim's owner and lease (store-port.ts ClaimLease). */
interface Lease { owner: string; leaseMs: number }

/** A key with waiting (queued or deferred) recipients and when the first of them is due. */
export interface WaitingKey { key: string; nextDueAt: number }

/** What one node's scheduler knows of a destination (docs/shaping.md). */
export interface DestinationSnapshot {
  name: string;
  provider: string | null;
  /** The keys (recipient domains) this node sends to it. */
  keys: string[];
  inFlight: number;
  concurrency: number;
  maxConcurrency: number;
  suspendedUntil: number | null;
  throttledUntil: number | null;
  lastThrottle: string | null;
  lastThrottleAt: number | null;
  /** The TLS policy last in force per MX host of its keys (src/mta/delivery/dane.ts); absent before #42. */
  tlsPolicies?: Record<string, TlsPolicyName>;
}

/** Which TLS a delivery to an MX host used: DANE (RFC 7672), MTA-STS enforce (RFC 8461), or opportunistic. */
export type TlsPolicyName = "dane" | "mta-sts" | "opportunistic";

export interface PublishedDestination { owner: string; updatedAt: number; snapshot: DestinationSnapshot }

export interface DestinationQueueStore {
  /** Every key with waiting recipients, with the due time of its first (cost: one index probe per key). */
  waitingKeys(): Promise<WaitingKey[]>;
  /** Waiting recipients per key (for listings, not the hot path). */
  waitingByKey(): Promise<{ key: string; count: number }[]>;
  /**
   * Claims, for each `{ key, limit }`, at most `limit` due recipients of that key for `lease.owner`
   * (as claimDue does): `newest` of them (default 0) the most recently due, the rest the longest
   * due, so mail accepted now is not queued behind a backlog that came due at once (a million
   * scheduled for one instant). Rows not due (parked) are never read. Returned in due order.
   */
  claimKeys(now: number, lease: Lease, wants: ClaimWant[]): Promise<StoredRecipient[]>;
  /** Replaces what `owner` published about its destinations. */
  publishDestinations(owner: string, now: number, list: DestinationSnapshot[]): Promise<void>;
  /** What every node published. */
  publishedDestinations(): Promise<PublishedDestination[]>;
}

/** One key's share of a claim: `limit` rows, `newest` of them taken from the most recently due end. */
export interface ClaimWant { key: string; limit: number; newest?: number }

// Short-term memory of honeypot-link visitors: which (ip, user agent) pairs hit a hidden link
// recently. Entries expire after the TTL (30 min, the contract's retention) and the map is bounded.
// Deciding whether a hit may taint a request (never from shared-human ranges) is the classifier's job.

export interface HoneypotMemoryOptions {
  /** Clock in epoch milliseconds; injected so tests and replays control time. */
  now: () => number;
  /** How long a hit is remembered. Default 30 minutes (service spec: honeypot data retention). */
  ttlMs?: number;
  /** Upper bound on remembered pairs; the oldest are dropped first. Default 100,000. */
  maxEntries?: number;
}

export interface HoneypotMemory {
  /** Records a honeypot hit by this (ip, user agent) pair now. */
  remember(ip: string, userAgent: string): void;
  /** Whether this exact (ip, user agent) pair hit a honeypot within the TTL. */
  isKnown(ip: string, userAgent: string): boolean;
  /** Whether any user agent from this ip hit a honeypot within the TTL (weaker; never taint on it alone). */
  hasIp(ip: string): boolean;
  /** Drops expired entries and returns how many were removed. */
  prune(): number;
  /** Number of remembered (ip, user agent) pairs, expired ones included until pruned. */
  readonly size: number;
}

export const HONEYPOT_TTL_MS = 30 * 60 * 1000;
const DEFAULT_MAX_ENTRIES = 100_000;
/** Prune at most this often (in writes) so remember() stays O(1) amortised. */
const PRUNE_EVERY_WRITES = 256;
const KEY_SEPARATOR = "\u0000";
/** IPs longer than this are not addresses; they are cut rather than stored whole. */
const MAX_IP_CHARS = 64;

/**
 * What is kept of a hit: the IP (cut to an address's length) and a 128-bit hash of the user agent,
 * never the user agent itself, so an entry costs the same whatever a visitor sends (the header
 * can be kilobytes long, and these links are hit without any authentication).
 */
function keyOf(ip: string, userAgent: string): string {
  const hash = new Bun.CryptoHasher("sha256").update(userAgent).digest("base64").slice(0, 22);
  return ip.slice(0, MAX_IP_CHARS) + KEY_SEPARATOR + hash;
}

/** Creates an in-memory honeypot memory with expiry and a size bound. */
export function createHoneypotMemory(options: HoneypotMemoryOptions): HoneypotMemory {
  const ttlMs = options.ttlMs ?? HONEYPOT_TTL_MS;
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const { now } = options;
  // Insertion order equals expiry order because every write re-inserts with the same TTL,
  // so pruning only ever looks at the head of each map.
  const pairs = new Map<string, number>();
  const ips = new Map<string, number>();
  let writes = 0;

  const pruneMap = (map: Map<string, number>, at: number, limit: number): number => {
    let removed = 0;
    for (const [key, expiresAt] of map) {
      if (expiresAt > at && map.size <= limit) break;
      map.delete(key);
      removed++;
    }
    return removed;
  };

  const prune = (): number => {
    const at = now();
    pruneMap(ips, at, maxEntries);
    return pruneMap(pairs, at, maxEntries);
  };

  const touch = (map: Map<string, number>, key: string, expiresAt: number): void => {
    map.delete(key);
    map.set(key, expiresAt);
  };

  const isLive = (map: Map<string, number>, key: string): boolean => {
    const expiresAt = map.get(key);
    return expiresAt !== undefined && expiresAt > now();
  };

  return {
    remember(ip, userAgent) {
      const expiresAt = now() + ttlMs;
      touch(pairs, keyOf(ip, userAgent), expiresAt);
      touch(ips, ip.slice(0, MAX_IP_CHARS), expiresAt);
      writes++;
      if (writes % PRUNE_EVERY_WRITES === 0 || pairs.size > maxEntries) prune();
    },
    isKnown: (ip, userAgent) => isLive(pairs, keyOf(ip, userAgent)),
    hasIp: (ip) => isLive(ips, ip.slice(0, MAX_IP_CHARS)),
    prune,
    get size() {
      return pairs.size;
    },
  };
}

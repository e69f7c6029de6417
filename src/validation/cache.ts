// A TTL cache with an entry cap, on an injected clock, for per-address verdicts and per-domain
// DNS answers. Eviction is by generations (two Maps; the older one is dropped whole when the
// younger fills): O(1) per operation, unlike deleting Map heads one by one, which degrades as
// tombstones pile up at the front.

interface Entry<V> {
  value: V;
  expiresAt: number;
}

export interface TtlCacheOptions {
  now: () => number;
  /** Time to live of an entry unless set() names another. */
  ttlMs: number;
  /** Upper bound on entries held; the least recently written half goes first. */
  maxEntries: number;
}

export class TtlCache<V> {
  private young = new Map<string, Entry<V>>();
  private old = new Map<string, Entry<V>>();
  private readonly generationSize: number;

  constructor(private readonly options: TtlCacheOptions) {
    this.generationSize = Math.max(1, Math.ceil(options.maxEntries / 2));
  }

  /** The live value for `key`, or undefined when missing or expired. */
  get(key: string): V | undefined {
    const entry = this.young.get(key) ?? this.old.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.options.now()) {
      this.young.delete(key);
      this.old.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Stores `value` for `ttlMs` (default: the cache's TTL); a TTL ≤ 0 stores nothing. */
  set(key: string, value: V, ttlMs = this.options.ttlMs): void {
    if (ttlMs <= 0 || this.options.maxEntries <= 0) return;
    this.old.delete(key);
    if (!this.young.has(key) && this.young.size >= this.generationSize) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, { value, expiresAt: this.options.now() + ttlMs });
  }

  get size(): number {
    return this.young.size + this.old.size;
  }

  clear(): void {
    this.young.clear();
    this.old.clear();
  }
}

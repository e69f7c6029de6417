// A cache of the most recently used entries, bounded by count (and, when asked, by bytes), at O(1)
// per call however many entries pass through it. Evicting a Map's oldest entry with `keys().next()`
// is not O(1) in Bun (JavaScriptCore): deleted entries stay in the table until it is rebuilt and
// the iterator walks over them, so once full every eviction cost about 15 µs (60,000 entries
// through a cache of 10,000: 815 ms; 20,000: 47 ms). A million scheduled messages going through
// the webhook fan-out's cache took that on the event loop while live mail was delivered (#41).
// Two generations instead: when the young one is full it becomes the old one and the old is
// dropped whole, so between capacity/2 and capacity of the latest entries are kept. An entry found
// in the old generation moves to the young one: one in use all the time (a newsletter's message
// while its recipients are delivered) stays however many others pass through.
export interface RecentCache<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): void;
  delete(key: K): void;
  clear(): void;
  readonly size: number;
  /** The entries' bytes, by `sizeOf` (0 without it). */
  readonly bytes: number;
}

export interface RecentCacheOptions<V> {
  /** Bytes held at most, by `sizeOf`: a generation past half of it is aged early. */
  maxBytes: number;
  sizeOf: (value: V) => number;
}

export function createRecentCache<K, V>(capacity: number, opts?: RecentCacheOptions<V>): RecentCache<K, V> {
  const half = Math.max(1, Math.floor(capacity / 2));
  const halfBytes = opts ? opts.maxBytes / 2 : Infinity;
  const sizeOf = opts?.sizeOf ?? (() => 0);
  let young = new Map<K, V>();
  let old = new Map<K, V>();
  let youngBytes = 0;
  let oldBytes = 0;

  // An entry larger than half the bytes is kept only while it is the newest: it does not age.
  const age = () => {
    if (youngBytes > halfBytes) { old = new Map(); oldBytes = 0; } else { old = young; oldBytes = youngBytes; }
    young = new Map(); youngBytes = 0;
  };
  /** Each generation holds at most half the bytes (one entry larger than that alone, while newest). */
  function add(key: K, value: V) {
    const before = young.get(key);
    if (before !== undefined) { young.delete(key); youngBytes -= sizeOf(before); }
    const size = sizeOf(value);
    if (young.size > 0 && youngBytes + size > halfBytes) age();
    young.set(key, value);
    youngBytes += size;
    if (young.size >= half) age();
  }
  function dropOld(key: K) {
    const v = old.get(key);
    if (v === undefined) return;
    old.delete(key);
    oldBytes -= sizeOf(v);
  }

  return {
    get(key) {
      const hit = young.get(key);
      if (hit !== undefined) return hit;
      const aged = old.get(key);
      if (aged !== undefined) { dropOld(key); add(key, aged); }
      return aged;
    },
    set(key, value) { dropOld(key); add(key, value); },
    delete(key) {
      dropOld(key);
      const v = young.get(key);
      if (v !== undefined) { young.delete(key); youngBytes -= sizeOf(v); }
    },
    clear() { young = new Map(); old = new Map(); youngBytes = oldBytes = 0; },
    get size() { return young.size + old.size; },
    get bytes() { return youngBytes + oldBytes; },
  };
}

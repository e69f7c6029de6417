// A cache of the most recently stored entries, bounded by count, at O(1) per call however many
// entries pass through it. Evicting a Map's oldest entry with `keys().next()` is not O(1) in
// Bun (JavaScriptCore): deleted entries stay in the table until it is rebuilt and the iterator
// walks over them, so once full every eviction cost about 15 µs (60,000 entries through a cache of
// 10,000: 815 ms; 20,000: 47 ms). A million scheduled messages going through the webhook
// fan-out's cache took that on the event loop while live mail was delivered (#41). Two
// generations instead: when the young one is full it becomes the old one and the old is dropped
// whole, so between capacity/2 and capacity of the latest entries are kept.
export interface RecentCache<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): void;
  readonly size: number;
}

export function createRecentCache<K, V>(capacity: number): RecentCache<K, V> {
  const half = Math.max(1, Math.floor(capacity / 2));
  let young = new Map<K, V>();
  let old = new Map<K, V>();
  return {
    get: (key) => young.get(key) ?? old.get(key),
    set(key, value) {
      young.set(key, value);
      if (young.size >= half) { old = young; young = new Map(); }
    },
    get size() { return young.size + old.size; },
  };
}

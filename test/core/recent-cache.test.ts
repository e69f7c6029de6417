// The recent-entries cache (src/core/recent-cache.ts): the latest entries are found, the count
// stays bounded, and its cost per call does not grow once full (counted as Map operations on a
// cache run through 200,000 entries, not timed).
import { expect, test } from "bun:test";
import { createRecentCache } from "../../src/core/recent-cache.ts";

test("keeps at least the latest half of its capacity and never more than its capacity", () => {
  const c = createRecentCache<string, number>(10_000);
  for (let i = 0; i < 200_000; i++) {
    c.set(`k${i}`, i);
    expect(c.size).toBeLessThanOrEqual(10_000);
  }
  for (let i = 200_000 - 5_000; i < 200_000; i++) expect(c.get(`k${i}`)).toBe(i);
  expect(c.get("k0")).toBeUndefined();
  expect(c.get(`k${200_000 - 10_001}`)).toBeUndefined();
});

test("evicts without iterating: no call walks the entries that went before", () => {
  // Count the iterator steps the cache takes: a Map evicting its oldest key steps an iterator on
  // every set once full; this cache never does.
  let steps = 0;
  const next = Map.prototype.keys;
  Map.prototype.keys = function (this: Map<unknown, unknown>) { steps++; return next.call(this); } as typeof Map.prototype.keys;
  try {
    const c = createRecentCache<number, number>(100);
    for (let i = 0; i < 10_000; i++) c.set(i, i);
  } finally {
    Map.prototype.keys = next;
  }
  expect(steps).toBe(0);
});

test("an entry in use stays however many others pass through; delete and clear forget", () => {
  const c = createRecentCache<string, number>(10);
  c.set("hot", 1);
  for (let i = 0; i < 1_000; i++) { c.set(`k${i}`, i); expect(c.get("hot")).toBe(1); }
  c.delete("hot");
  expect(c.get("hot")).toBeUndefined();
  c.clear();
  expect(c.size).toBe(0);
});

test("with a byte bound, the bytes held stay under it and are counted as entries come and go", () => {
  const c = createRecentCache<number, { n: number }>(1_000, { maxBytes: 100, sizeOf: (v) => v.n });
  for (let i = 0; i < 500; i++) {
    c.set(i, { n: 7 });
    expect(c.bytes).toBeLessThanOrEqual(100);
    expect(c.bytes).toBe(7 * c.size);
  }
  c.set(499, { n: 3 });
  expect(c.bytes).toBe(7 * (c.size - 1) + 3);
  c.delete(499);
  expect(c.bytes).toBe(7 * c.size);
  expect(c.get(498)).toEqual({ n: 7 });
});

test("an entry larger than half the byte bound is kept only while it is the newest", () => {
  const c = createRecentCache<string, number>(100, { maxBytes: 10, sizeOf: (v) => v });
  c.set("big", 8);
  expect(c.get("big")).toBe(8);
  c.set("next", 1);
  expect(c.get("big")).toBeUndefined();
  expect(c.get("next")).toBe(1);
});

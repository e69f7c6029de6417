import { describe, expect, test } from "bun:test";
import { TtlCache } from "../../src/validation/cache.ts";

describe("TtlCache", () => {
  test("returns a value until its time to live has passed", () => {
    let now = 1_000;
    const cache = new TtlCache<string>({ now: () => now, ttlMs: 100, maxEntries: 10 });
    cache.set("a", "A");
    now += 99;
    expect(cache.get("a")).toBe("A");
    now += 1;
    expect(cache.get("a")).toBeUndefined();
  });

  test("honours a per-entry time to live and stores nothing for zero", () => {
    const cache = new TtlCache<number>({ now: () => 0, ttlMs: 100, maxEntries: 10 });
    cache.set("short", 1, 0);
    expect(cache.get("short")).toBeUndefined();
  });

  test("drops the oldest entry when full", () => {
    const cache = new TtlCache<number>({ now: () => 0, ttlMs: 100, maxEntries: 2 });
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("c", 3);
    expect([cache.get("a"), cache.get("b"), cache.get("c"), cache.size]).toEqual([undefined, 2, 3, 2]);
  });
});

// Honeypot memory: exact (ip, UA) scoping, expiry with an injected clock, and the size bound.

import { describe, expect, test } from "bun:test";
import { HONEYPOT_TTL_MS, createHoneypotMemory } from "../../../src/tracking/bot/honeypot.ts";

function clock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

describe("createHoneypotMemory", () => {
  test("remembers the exact (ip, user agent) pair, and the ip alone only via hasIp", () => {
    const c = clock();
    const memory = createHoneypotMemory({ now: c.now });
    memory.remember("203.0.113.9", "UA-1");
    expect(memory.isKnown("203.0.113.9", "UA-1")).toBe(true);
    expect(memory.isKnown("203.0.113.9", "UA-2")).toBe(false);
    expect(memory.isKnown("203.0.113.10", "UA-1")).toBe(false);
    expect(memory.hasIp("203.0.113.9")).toBe(true);
    expect(memory.hasIp("203.0.113.10")).toBe(false);
  });

  test("forgets a hit after 30 minutes by default", () => {
    const c = clock();
    const memory = createHoneypotMemory({ now: c.now });
    memory.remember("198.51.100.1", "UA");
    c.advance(HONEYPOT_TTL_MS - 1);
    expect(memory.isKnown("198.51.100.1", "UA")).toBe(true);
    c.advance(1);
    expect(memory.isKnown("198.51.100.1", "UA")).toBe(false);
    expect(memory.hasIp("198.51.100.1")).toBe(false);
  });

  test("a repeat hit extends the memory", () => {
    const c = clock();
    const memory = createHoneypotMemory({ now: c.now, ttlMs: 1000 });
    memory.remember("2001:db8::1", "UA");
    c.advance(800);
    memory.remember("2001:db8::1", "UA");
    c.advance(800);
    expect(memory.isKnown("2001:db8::1", "UA")).toBe(true);
  });

  test("prune drops expired entries and reports how many", () => {
    const c = clock();
    const memory = createHoneypotMemory({ now: c.now, ttlMs: 1000 });
    memory.remember("a", "1");
    memory.remember("b", "1");
    c.advance(500);
    memory.remember("c", "1");
    c.advance(600);
    expect(memory.prune()).toBe(2);
    expect(memory.size).toBe(1);
    expect(memory.isKnown("c", "1")).toBe(true);
  });

  test("stays within maxEntries by dropping the oldest first", () => {
    const c = clock();
    const memory = createHoneypotMemory({ now: c.now, maxEntries: 100 });
    for (let i = 0; i < 1000; i++) {
      memory.remember(`10.0.${i >> 8}.${i & 255}`, "UA");
      c.advance(1);
    }
    expect(memory.size).toBeLessThanOrEqual(100);
    expect(memory.isKnown("10.0.3.231", "UA")).toBe(true);
    expect(memory.isKnown("10.0.0.0", "UA")).toBe(false);
  });

  test("expired entries are pruned as new hits arrive, so memory does not grow without bound", () => {
    const c = clock();
    const memory = createHoneypotMemory({ now: c.now, ttlMs: 10 });
    for (let i = 0; i < 10_000; i++) {
      memory.remember(`ip-${i}`, "UA");
      c.advance(5);
    }
    expect(memory.size).toBeLessThan(300);
  });
});

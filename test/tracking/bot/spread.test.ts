// The in-memory spread tracker (what one visitor clicked across messages) that the offline replay
// uses; the store-backed twin is covered by the store contract (test/store/contract-bot-memory.ts).
import { expect, test } from "bun:test";
import { createSpreadTracker, OPENED_TTL_MS, SPREAD_WINDOW_MS } from "../../../src/tracking/bot/spread.ts";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36";

function tracker(options: { maxVisitors?: number; maxOpened?: number } = {}) {
  let clock = 1_800_000_000_000;
  const t = createSpreadTracker({ now: () => clock, ...options });
  return { t, advance: (ms: number) => { clock += ms; } };
}
const click = (ip: string, n: number, domain: string, userAgent = CHROME) => ({ ip, userAgent, messageId: `m${n}`, recipientId: `r${n}`, domain });

test("counts a visitor's distinct recipients, domains and never-opened recipients within the window", () => {
  const { t, advance } = tracker();
  t.open("m2", "r2");
  expect(t.click(click("203.0.113.9", 1, "a.example"))).toEqual({ recipients: 1, domains: 1, unopened: 1 });
  advance(60_000);
  expect(t.wasOpened("m2", "r2")).toBe(true);
  expect(t.click(click("203.0.113.9", 2, "b.example"))).toEqual({ recipients: 2, domains: 2, unopened: 1 });
  expect(t.click(click("203.0.113.9", 2, "b.example"))).toEqual({ recipients: 2, domains: 2, unopened: 1 });
  expect(t.click(click("203.0.113.9", 3, "b.example"))).toEqual({ recipients: 3, domains: 2, unopened: 2 });
  // Another UA at the same address is another visitor.
  expect(t.click(click("203.0.113.9", 4, "c.example", "other"))).toEqual({ recipients: 1, domains: 1, unopened: 1 });
  advance(SPREAD_WINDOW_MS + 1);
  expect(t.click(click("203.0.113.9", 5, "c.example"))).toEqual({ recipients: 1, domains: 1, unopened: 1 });
});

test("an open counts for a week; memory is bounded", () => {
  const { t, advance } = tracker({ maxVisitors: 2, maxOpened: 1 });
  t.open("m1", "r1");
  advance(OPENED_TTL_MS);
  expect(t.wasOpened("m1", "r1")).toBe(true);
  advance(1);
  expect(t.wasOpened("m1", "r1")).toBe(false);
  t.open("m2", "r2");
  t.open("m3", "r3");
  expect(t.wasOpened("m2", "r2")).toBe(false);
  for (const ip of ["198.51.100.1", "198.51.100.2", "198.51.100.3"]) t.click(click(ip, 1, "a.example"));
  expect(t.size).toBe(2);
});

// Interaction tracker: per-message distinct-link counts over 1 s / burst / window, honeypot as a
// link, expiry and the memory bound, all with an injected clock.

import { describe, expect, test } from "bun:test";
import { createClassifierContext } from "../../../src/tracking/bot/context.ts";
import { burstOnlyClient, createInteractionTracker, widestPattern } from "../../../src/tracking/bot/pattern.ts";
import { IP, UA } from "./signals.ts";

function clock(): { now: () => number; at: (ms: number) => void } {
  let t = 0;
  return { now: () => t, at: (ms) => (t = ms) };
}

describe("createInteractionTracker", () => {
  test("a scanner burst: distinct links within 1 s, 5 s and 60 s", () => {
    const c = clock();
    const tracker = createInteractionTracker({ now: c.now });
    const hit = (ms: number, link: string) => {
      c.at(ms);
      return tracker.record({ messageId: "m1", recipientId: "r1", action: "click", linkId: link, linkCount: 5 });
    };
    expect(hit(0, "a")).toEqual({ distinctLinksInSecond: 1, distinctLinksInBurst: 1, distinctLinksInWindow: 1, linkCount: 5 });
    expect(hit(300, "b").distinctLinksInSecond).toBe(2);
    expect(hit(2_000, "c")).toMatchObject({ distinctLinksInSecond: 1, distinctLinksInBurst: 3, distinctLinksInWindow: 3 });
    expect(hit(30_000, "d")).toMatchObject({ distinctLinksInBurst: 1, distinctLinksInWindow: 4 });
    expect(hit(90_000, "e")).toMatchObject({ distinctLinksInWindow: 2 });
  });

  test("repeat clicks on one link count once; opens add no link", () => {
    const c = clock();
    const tracker = createInteractionTracker({ now: c.now });
    tracker.record({ messageId: "m", action: "click", linkId: "a" });
    c.at(100);
    tracker.record({ messageId: "m", action: "open" });
    c.at(200);
    expect(tracker.record({ messageId: "m", action: "click", linkId: "a" }).distinctLinksInSecond).toBe(1);
  });

  test("a honeypot hit counts as one more distinct link", () => {
    const c = clock();
    const tracker = createInteractionTracker({ now: c.now });
    tracker.record({ messageId: "m", action: "honeypot" });
    c.at(400);
    expect(tracker.record({ messageId: "m", action: "click", linkId: "a" }).distinctLinksInSecond).toBe(2);
  });

  test("messages and recipients are tracked separately", () => {
    const c = clock();
    const tracker = createInteractionTracker({ now: c.now });
    tracker.record({ messageId: "m", recipientId: "r1", action: "click", linkId: "a" });
    expect(tracker.record({ messageId: "m", recipientId: "r2", action: "click", linkId: "b" }).distinctLinksInSecond).toBe(1);
    expect(tracker.record({ messageId: "n", recipientId: "r1", action: "click", linkId: "b" }).distinctLinksInSecond).toBe(1);
  });

  test("a person's click is not counted with a scanner's fetches of the same message (one client, one pattern)", () => {
    const c = clock();
    const tracker = createInteractionTracker({ now: c.now });
    for (const link of ["a", "b", "c", "d"]) tracker.record({ messageId: "m", recipientId: "r", action: "click", linkId: link, userAgent: "scanner", linkCount: 4 });
    c.at(20_000);
    const person = tracker.record({ messageId: "m", recipientId: "r", action: "click", linkId: "b", userAgent: "person", linkCount: 4 });
    expect(person).toMatchObject({ distinctLinksInBurst: 1, distinctLinksInWindow: 1 });
    const scanner = tracker.record({ messageId: "m", recipientId: "r", action: "click", linkId: "e", userAgent: "scanner", linkCount: 4 });
    expect(scanner.distinctLinksInWindow).toBe(5);
  });

  test("history expires after the window and the number of messages is bounded", () => {
    const c = clock();
    const tracker = createInteractionTracker({ now: c.now, windowMs: 1000, maxMessages: 50 });
    for (let i = 0; i < 500; i++) {
      c.at(i * 10);
      tracker.record({ messageId: `m${i}`, action: "click", linkId: "a" });
    }
    expect(tracker.size).toBeLessThanOrEqual(50);
    c.at(100_000);
    tracker.record({ messageId: "late", action: "click", linkId: "a" });
    expect(tracker.size).toBe(1);
  });
});

describe("one client per vendor network and per cloud address (issue #38: sandboxes rotate addresses and user agents)", () => {
  const ctx = createClassifierContext();
  test("a fetch from a vendor's network belongs to its UA and to the vendor; elsewhere to its UA alone", () => {
    expect(ctx.clientsOf(IP.proofpoint, UA.chromeWin)).toEqual([UA.chromeWin, "\u0000net:proofpoint"]);
    expect(ctx.vendorOf(IP.proofpoint)).toBe("proofpoint");
    expect(ctx.clientsOf(IP.home, UA.chromeWin)).toEqual([UA.chromeWin]);
    expect(ctx.vendorOf(IP.home)).toBeUndefined();
    // Cloud space is not a vendor (people on cloud desktops share it), but one address there is one client, and the
    // provider's space one more for a second and a burst.
    expect(ctx.clientsOf(IP.azure, UA.chromeWin)).toEqual([UA.chromeWin, `\u0000ip:${IP.azure}`, burstOnlyClient("azure")]);
    expect(ctx.vendorOf(IP.azure)).toBeUndefined();
    expect(ctx.vendorOf("")).toBeUndefined();
  });

  test("a vendor's fetches of one message with a new UA each still make a burst, and the pattern is the widest", () => {
    let t = 0;
    const tracker = createInteractionTracker({ now: () => t });
    const fetch = (ms: number, link: string, ua: string) => {
      t = ms;
      return widestPattern(ctx.clientsOf(IP.proofpoint, ua).map((client) =>
        tracker.record({ messageId: "m", recipientId: "r", action: "click", linkId: link, userAgent: client })));
    };
    fetch(0, "a", UA.chromeWin);
    fetch(800, "b", UA.ie11);
    expect(fetch(1_500, "c", "")).toEqual({ distinctLinksInSecond: 2, distinctLinksInBurst: 3, distinctLinksInWindow: 3 });
    // A person's browser elsewhere is not counted with them.
    t = 2_000;
    expect(tracker.record({ messageId: "m", recipientId: "r", action: "click", linkId: "d", userAgent: UA.androidChrome }).distinctLinksInBurst).toBe(1);
  });

  test("a cloud provider's fetches of one message from a new address and UA each make a burst, never a window", () => {
    let t = 0;
    const tracker = createInteractionTracker({ now: () => t });
    const fetch = (ms: number, link: string, ip: string, ua: string) => {
      t = ms;
      const clients = ctx.clientsOf(ip, ua);
      return widestPattern(clients.map((client) =>
        tracker.record({ messageId: "m", recipientId: "r", action: "click", linkId: link, userAgent: client, linkCount: 4 })), clients);
    };
    // Defender's detonation: four links, four Azure addresses, four pinned Chrome builds, within seconds.
    fetch(0, "a", "20.115.193.1", UA.chromeWin.replace(/Chrome\/[\d.]+/, "Chrome/130.0.0.0"));
    fetch(2_400, "b", "40.79.191.184", UA.chromeWin.replace(/Chrome\/[\d.]+/, "Chrome/131.0.0.0"));
    expect(fetch(4_600, "c", "20.43.115.84", UA.chromeWin.replace(/Chrome\/[\d.]+/, "Chrome/132.0.0.0")))
      .toEqual({ distinctLinksInSecond: 1, distinctLinksInBurst: 3, distinctLinksInWindow: 1, linkCount: 4 });
    fetch(6_500, "d", "13.66.98.89", UA.chromeWin.replace(/Chrome\/[\d.]+/, "Chrome/133.0.0.0"));
    // A person on a cloud desktop reading at once, 30 s later: the sandbox's four links are not theirs.
    expect(fetch(36_000, "a", IP.azure, UA.chromeWin)).toEqual({ distinctLinksInSecond: 1, distinctLinksInBurst: 1, distinctLinksInWindow: 1, linkCount: 4 });
    // Not counted with another provider's fetches, or with the vendor networks'.
    t = 37_000;
    expect(tracker.record({ messageId: "m", recipientId: "r", action: "click", linkId: "e", userAgent: burstOnlyClient("aws") }).distinctLinksInBurst).toBe(1);
  });
});


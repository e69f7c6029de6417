// The store contract for bot-detection memory: honeypot visitors until they expire, the distinct
// links of a message over the pattern windows, the per-message cap, pruning, and (with a peer)
// another node seeing the same memory.
import { expect, test } from "bun:test";
import type { BotInteraction, Store } from "../../src/core/store-port.ts";

const NOW = 1_800_000_000_000;
type Open = () => Store | Promise<Store>;

/** A click on `link` of message `m` by visitor `v` at `now`, with the detector's windows (1 s, 5 s, 60 s). */
const click = (v: string, m: string | null, link: string | null, now = NOW, maxPerMessage = 256): BotInteraction => ({
  visitor: v, messageKey: m, link, now, since: { second: now - 1_000, burst: now - 5_000, window: now - 60_000 }, maxPerMessage });
const counts = (r: { linksInSecond: number; linksInBurst: number; linksInWindow: number }) => [r.linksInSecond, r.linksInBurst, r.linksInWindow];

export function botMemoryContract(open: Open, openPeer?: (a: Store) => Store | Promise<Store>) {
  test("bot memory: a honeypot visitor is known until it expires (a later hit extends it), by every node of the zone", async () => {
    const a = await open();
    const b = openPeer ? await openPeer(a) : a;
    await a.zone("us").rememberHoneypotHit("v1", NOW + 1_000);
    await a.zone("us").rememberHoneypotHit("v1", NOW + 500);
    expect((await b.zone("us").recallInteraction(click("v1", null, null))).honeypot).toBe(true);
    expect((await b.zone("us").recallInteraction(click("v1", null, null, NOW + 999))).honeypot).toBe(true);
    expect((await b.zone("us").recallInteraction(click("v1", null, null, NOW + 1_000))).honeypot).toBe(false);
    expect((await b.zone("us").recallInteraction(click("v2", null, null))).honeypot).toBe(false);
    expect((await b.zone("eu").recallInteraction(click("v1", null, null))).honeypot).toBe(false);
    if (b !== a) await b.close();
    await a.close();
  });

  test("bot memory: a message's distinct links over a second, a burst and the window, this click included; opens store nothing", async () => {
    const store = await open();
    const z = store.zone("us");
    expect(counts(await z.recallInteraction(click("v", "m1", "a", NOW - 30_000)))).toEqual([1, 1, 1]);
    expect(counts(await z.recallInteraction(click("v", "m1", "b", NOW - 3_000)))).toEqual([1, 1, 2]);
    expect(counts(await z.recallInteraction(click("v", "m1", "c", NOW - 500)))).toEqual([1, 2, 3]);
    expect(counts(await z.recallInteraction(click("w", "m1", "c", NOW)))).toEqual([1, 2, 3]);
    expect(counts(await z.recallInteraction(click("w", "m1", null, NOW)))).toEqual([1, 2, 3]);
    expect(counts(await z.recallInteraction(click("w", "m1", null, NOW + 61_000)))).toEqual([0, 0, 0]);
    expect(counts(await z.recallInteraction(click("v", "m2", null)))).toEqual([0, 0, 0]);
    expect(counts(await z.recallInteraction(click("v", null, "x")))).toEqual([0, 0, 0]);
    // A flooded message stores no more than its cap; the click asked about still counts.
    for (const l of ["p", "q", "r"]) await z.recallInteraction(click("v", "m3", l, NOW, 2));
    expect(counts(await z.recallInteraction(click("v", "m3", null, NOW, 2)))).toEqual([2, 2, 2]);
    await store.close();
  });

  test("bot memory: pruning forgets expired visitors and old interactions, then the oldest beyond the bounds", async () => {
    const store = await open();
    const z = store.zone("us");
    for (let i = 0; i < 5; i++) {
      await z.rememberHoneypotHit(`v${i}`, NOW + i * 1_000);
      await z.recallInteraction(click("v", `m${i}`, "a", NOW - 100_000 + i * 30_000));
    }
    // v0 expired; interactions before NOW - 60 s (m0, m1) are gone; then at most 2 of each are kept.
    expect(await z.pruneBotMemory(NOW, NOW - 60_000, { visitors: 10, interactions: 10 })).toBe(3);
    expect(await z.pruneBotMemory(NOW, NOW - 60_000, { visitors: 2, interactions: 2 })).toBe(3);
    const known = async (v: string) => (await z.recallInteraction(click(v, null, null))).honeypot;
    expect([await known("v1"), await known("v2"), await known("v3"), await known("v4")]).toEqual([false, false, true, true]);
    const window = async (m: string) => (await z.recallInteraction(click("v", m, null, NOW - 10_000))).linksInWindow;
    expect([await window("m2"), await window("m3"), await window("m4")]).toEqual([0, 1, 1]);
    await store.close();
  });
}

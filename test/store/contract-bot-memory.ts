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

/** `click` with the across-messages part: recipient `r` of domain `d`, spread window 30 min, opens for 7 days. */
const across = (v: string, m: string, link: string | null, r: string, d: string, now = NOW, maxPerVisitor = 256): BotInteraction => ({
  ...click(v, m, link, now), across: { recipient: r, domain: d, since: now - 1_800_000, openedSince: now - 7 * 86_400_000, maxPerVisitor } });
const spreadOf = (x: { wasOpened: boolean; recipients: number; domains: number; unopened: number }) => [x.wasOpened, x.recipients, x.domains, x.unopened];

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

  test("bot memory: the message's hidden-link hit, kept without a recipient, counts with a recipient's pattern of the same client; its other links do not", async () => {
    const store = await open();
    const z = store.zone("us");
    await z.recallInteraction({ ...click("v", "m8", "hp"), patternKey: "m8-any-ua" });
    await z.recallInteraction({ ...click("v", "m8", "other"), patternKey: "m8-any-ua" });
    const withRow = await z.recallInteraction({ ...click("v", "m8", "a", NOW + 500), patternKey: "m8-r1-ua", honeypotRow: { patternKey: "m8-any-ua", link: "hp" } });
    expect(counts(withRow)).toEqual([2, 2, 2]);
    expect(counts(await z.recallInteraction({ ...click("v", "m8", null, NOW + 500), patternKey: "m8-r2-ua" }))).toEqual([0, 0, 0]);
    await store.close();
  });

  test("bot memory: an interaction is counted with the ones before it, not with later ones read first (an API batch out of order)", async () => {
    const store = await open();
    const z = store.zone("us");
    await z.recallInteraction(across("v", "m7", "late", "r1", "d1", NOW + 3_000));
    const early = await z.recallInteraction(across("v", "m7", "early", "r2", "d2", NOW));
    expect(counts(early)).toEqual([1, 1, 1]);
    expect(spreadOf(early).slice(1, 3)).toEqual([1, 1]);
    expect(counts(await z.recallInteraction(click("v", "m7", null, NOW + 3_000)))).toEqual([1, 2, 2]);
    await store.close();
  });

  test("bot memory: with a pattern key, links count per client while opens stay the message's (issue #38)", async () => {
    const store = await open();
    const z = store.zone("us");
    const byClient = (v: string, p: string, link: string | null, now = NOW): BotInteraction => ({ ...across(v, "m9", link, "r", "d", now), patternKey: p });
    await z.recallInteraction(byClient("scanner", "m9-scanner", "a", NOW - 2_500));
    await z.recallInteraction(byClient("scanner", "m9-scanner", "b", NOW - 1_500));
    expect(counts(await z.recallInteraction(byClient("scanner", "m9-scanner", "c", NOW - 1_000)))).toEqual([2, 3, 3]);
    await z.recallInteraction(byClient("person", "m9-person", null, NOW - 500));
    const person = await z.recallInteraction(byClient("person", "m9-person", "b"));
    expect(counts(person)).toEqual([1, 1, 1]);
    expect(person.wasOpened).toBe(true);
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
    // m4's click is later than the interaction asked about (NOW - 10 s): not counted for it.
    expect([await window("m2"), await window("m3"), await window("m4")]).toEqual([0, 1, 0]);
    await store.close();
  });

  test("bot memory across messages: a visitor's distinct recipients, domains and never-opened recipients over the window; opens mark their message", async () => {
    const a = await open();
    const b = openPeer ? await openPeer(a) : a;
    const z = a.zone("us");
    // An open (no link) of m2 marks it opened and reads no spread.
    expect(spreadOf(await z.recallInteraction(across("reader", "m2", null, "r2", "d1", NOW - 120_000)))).toEqual([true, 0, 0, 0]);
    expect(spreadOf(await z.recallInteraction(across("v", "m1", "a", "r1", "d1", NOW - 2_000_000)))).toEqual([false, 1, 1, 1]);
    expect(spreadOf(await z.recallInteraction(across("v", "m2", "a", "r2", "d1", NOW - 60_000)))).toEqual([true, 1, 1, 0]);
    expect(spreadOf(await z.recallInteraction(across("v", "m3", "a", "r3", "d2", NOW - 30_000)))).toEqual([false, 2, 2, 1]);
    // The same recipient again counts once; another node sees the same memory.
    expect(spreadOf(await b.zone("us").recallInteraction(across("v", "m3", "b", "r3", "d2")))).toEqual([false, 2, 2, 1]);
    expect(spreadOf(await b.zone("us").recallInteraction(across("v", "m4", "a", "r4", "d3")))).toEqual([false, 3, 3, 2]);
    // Other visitors, zones, and interactions without `across` see nothing of it.
    expect(spreadOf(await z.recallInteraction(across("w", "m5", "a", "r5", "d1")))).toEqual([false, 1, 1, 1]);
    expect(spreadOf(await a.zone("eu").recallInteraction(across("v", "m2", "a", "r2", "d1")))).toEqual([false, 1, 1, 1]);
    expect(spreadOf(await z.recallInteraction(click("v", "m6", "a")))).toEqual([false, 0, 0, 0]);
    // An open older than openedSince no longer counts.
    expect((await z.recallInteraction(across("x", "m2", "a", "r2", "d1", NOW + 7 * 86_400_000))).wasOpened).toBe(false);
    // A flooding visitor stores no more than its cap.
    for (const r of ["p", "q", "s"]) await z.recallInteraction(across("f", `m-${r}`, "a", r, r, NOW, 2));
    expect(spreadOf(await z.recallInteraction(across("f", "m-t", null, "t", "t", NOW, 2)))).toEqual([true, 0, 0, 0]);
    expect((await z.recallInteraction(across("f", "m-p", "a", "p", "p", NOW, 2))).recipients).toBe(2);
    if (b !== a) await b.close();
    await a.close();
  });

  test("bot memory across messages: pruning forgets old clicks and opened marks, then the oldest beyond the bounds", async () => {
    const store = await open();
    const z = store.zone("us");
    for (let i = 0; i < 4; i++) {
      await z.recallInteraction(across("v", `m${i}`, null, `r${i}`, "d", NOW - 4_000_000 + i * 1_000_000));
      await z.recallInteraction(across("v", `m${i}`, "a", `r${i}`, `d${i}`, NOW - 4_000_000 + i * 1_000_000));
    }
    // Clicks and opens before NOW - 2,500 s go (m0, m1: 2 clicks and 2 opens), then one of each is kept.
    const older = { spread: NOW - 2_500_000, opened: NOW - 2_500_000 };
    expect(await z.pruneBotMemory(NOW, NOW, { visitors: 10, interactions: 10, spread: 10, opened: 10 }, older)).toBe(4 + 4);
    expect(await z.pruneBotMemory(NOW, NOW, { visitors: 10, interactions: 10, spread: 1, opened: 1 }, older)).toBe(2);
    const r = await z.recallInteraction(across("v", "m3", "b", "r3", "d3", NOW));
    expect([r.wasOpened, r.recipients]).toEqual([true, 1]);
    expect((await z.recallInteraction(across("w", "m2", "b", "r2", "d2", NOW))).wasOpened).toBe(false);
    await store.close();
  });
}

// Delivery's turns: one per event-loop turn normally; while API callers wait, paced by the loop's
// lag, never stopped; lanes (destinations) round robin. No timing is asserted: only order, that
// every turn comes, and the pacing rule itself.
import { expect, test } from "bun:test";
import { LAG_TARGET_MS, MAX_BUILDING, MAX_BURST, MAX_GAP_MS, MIN_GAP_MS, createTurns, nextBurst, nextGap } from "../../../src/mta/delivery/turns.ts";

test("with no caller waiting turns come in order", async () => {
  const turns = createTurns(() => false);
  const order: number[] = [];
  await Promise.all([0, 1, 2, 3].map((i) => turns().then((built) => { order.push(i); built(); })));
  expect(order).toEqual([0, 1, 2, 3]);
});

test("while callers keep waiting, attempts keep starting: every turn comes", async () => {
  const turns = createTurns(() => true);
  let done = 0;
  await Promise.all(Array.from({ length: 20 }, () => turns("bulk.test").then((built) => { done++; built(); })));
  expect(done).toBe(20);
  expect(turns.gap()).toBeLessThanOrEqual(MAX_GAP_MS);
});

test("the least recently served lane goes first: a destination's first recipient is not queued behind busy ones", async () => {
  for (const busy of [false, true]) {
    const turns = createTurns(() => busy);
    const order: string[] = [];
    const all: Promise<unknown>[] = [];
    // Twenty busy destinations with three recipients each, then one recipient for a new one.
    for (let i = 0; i < 3; i++) for (let d = 0; d < 20; d++) all.push(turns(`bulk${d}.test`).then((built) => { order.push(`bulk${d}-${i}`); built(); }));
    while (order.length < 20) await Bun.sleep(1); // every busy destination has been served once
    all.push(turns("probe.test").then((built) => { order.push("probe"); built(); }));
    const servedBefore = order.length;
    await Promise.all(all);
    expect(order.indexOf("probe")).toBeLessThanOrEqual(servedBefore);
    // Within a destination, recipients keep their order.
    expect(order.filter((o) => o.startsWith("bulk7-"))).toEqual(["bulk7-0", "bulk7-1", "bulk7-2"]);
  }
});

test("at most MAX_BUILDING builds are out at once: the next turn waits for one to be built", async () => {
  for (const busy of [false, true]) {
    const turns = createTurns(() => busy);
    const out: (() => void)[] = [];
    const all = Array.from({ length: MAX_BUILDING + 3 }, () => turns("bulk.test").then((built) => { out.push(built); }));
    while (out.length < MAX_BUILDING) await Bun.sleep(1);
    await Bun.sleep(30);
    expect(out.length).toBe(MAX_BUILDING); // nobody built yet: no more turns, however long we wait
    out[0]!();
    out[0]!(); // idempotent: one slot back, not two
    while (out.length < MAX_BUILDING + 1) await Bun.sleep(1);
    await Bun.sleep(30);
    expect(out.length).toBe(MAX_BUILDING + 1);
    for (const b of out.slice(1)) b();
    await Promise.all(all);
    expect(out.length).toBe(MAX_BUILDING + 3);
  }
});

test("the gap doubles while the loop lags past the target, up to the cap, and shrinks back to the floor when it does not", () => {
  let gap = MIN_GAP_MS;
  const grown: number[] = [];
  for (let i = 0; i < 10; i++) grown.push((gap = nextGap(gap, LAG_TARGET_MS + 5)));
  expect(grown[1]! > grown[0]!).toBe(true);
  expect(grown.at(-1)).toBe(MAX_GAP_MS);
  expect(Math.max(...grown)).toBe(MAX_GAP_MS); // delivery is slowed, never stopped
  for (let i = 0; i < 50; i++) gap = nextGap(gap, 0);
  expect(gap).toBe(MIN_GAP_MS);
  expect(nextGap(20, 1)).toBeLessThan(20);
});

test("while callers wait, a timer on time carries a growing burst of starts; a late one halves it back to one", () => {
  let burst = 1;
  const grown: number[] = [];
  for (let i = 0; i < 6; i++) grown.push((burst = nextBurst(burst, 0)));
  expect(grown).toEqual([2, 4, 8, 8, 8, 8].map((b) => Math.min(b, MAX_BURST)));
  for (let i = 0; i < 6; i++) burst = nextBurst(burst, LAG_TARGET_MS);
  expect(burst).toBe(1); // on a loop that is the bottleneck: one start per gap, as before
});

// Delivery's turns: one per event-loop turn normally; while API callers wait, paced by the loop's
// lag, never stopped; lanes (destinations) round robin. No timing is asserted: only order, that
// every turn comes, and the pacing rule itself.
import { expect, test } from "bun:test";
import { LAG_TARGET_MS, MAX_GAP_MS, MIN_GAP_MS, createTurns, nextGap } from "../../../src/mta/delivery/turns.ts";

test("with no caller waiting turns come in order", async () => {
  const turns = createTurns(() => false);
  const order: number[] = [];
  await Promise.all([0, 1, 2, 3].map((i) => turns().then(() => order.push(i))));
  expect(order).toEqual([0, 1, 2, 3]);
});

test("while callers keep waiting, attempts keep starting: every turn comes", async () => {
  const turns = createTurns(() => true);
  let done = 0;
  await Promise.all(Array.from({ length: 20 }, () => turns("bulk.test").then(() => { done++; })));
  expect(done).toBe(20);
  expect(turns.gap()).toBeLessThanOrEqual(MAX_GAP_MS);
});

test("lanes take turns round robin: a destination's first recipient is not queued behind a busy one's", async () => {
  for (const busy of [false, true]) {
    const turns = createTurns(() => busy);
    const order: string[] = [];
    const all = Array.from({ length: 6 }, (_, i) => turns("bulk.test").then(() => order.push(`bulk${i}`)));
    all.push(turns("probe.test").then(() => order.push("probe")));
    await Promise.all(all);
    expect(order.indexOf("probe")).toBeLessThanOrEqual(1);
    expect(order.filter((o) => o.startsWith("bulk"))).toEqual(["bulk0", "bulk1", "bulk2", "bulk3", "bulk4", "bulk5"]);
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

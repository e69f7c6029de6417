// Per-target lanes: a target's slots are its own, a failing target is closed for its backoff and
// then probed one POST at a time, and a success opens it fully again. Clock injected.
import { describe, expect, test } from "bun:test";
import { createLanes, LANE_DEPTH, type Outcome } from "../../src/webhooks/lanes.ts";

function setup() {
  let now = 1_000;
  const lanes = createLanes({ concurrency: 2, backoff: (n) => n * 1_000, now: () => now, onFree: () => {}, onRecovered: (k: string) => { recovered.push(k); }, onError: () => {} });
  const recovered: string[] = [];
  const pending: ((o: Outcome) => void)[] = [];
  const released: number[] = [];
  const job = () => ({ run: () => new Promise<Outcome>((r) => pending.push(r)), release: async (at: number) => { released.push(at); } });
  return { lanes, pending, released, job, recovered, tick: (ms: number) => { now += ms; } };
}

const settle = () => Bun.sleep(0);

describe("webhook lanes", () => {
  test("a target with every slot taken and its queue full is closed; another target is not held up", () => {
    const { lanes, pending, job } = setup();
    for (let i = 0; i < 2 * LANE_DEPTH; i++) lanes.submit("hung", job());
    lanes.submit("healthy", job());
    expect(pending).toHaveLength(3); // two slots of the hung target and the healthy one's: nobody waits for another target
    expect(lanes.closed()).toEqual(["hung"]);
  });

  test("a failure closes the target for its backoff, then one probe at a time; a success reopens it", async () => {
    const { lanes, pending, job, tick, recovered } = setup();
    lanes.submit("t", job());
    pending.shift()!("failed");
    await settle();
    expect(lanes.closed()).toEqual(["t"]);
    tick(1_001);
    expect(lanes.closed()).toEqual([]);
    for (let i = 0; i < LANE_DEPTH; i++) lanes.submit("t", job());
    expect(pending).toHaveLength(1); // probing: one in flight is all a failing target gets
    expect(lanes.closed()).toEqual(["t"]);
    pending.shift()!("ok");
    await settle();
    expect(pending).toHaveLength(2); // healthy again: two slots
    expect(recovered).toEqual(["t"]);
    expect(lanes.closed()).toEqual([]);
  });

  test("jobs queued behind a failure are handed back due at the end of the backoff", async () => {
    const { lanes, pending, released, job } = setup();
    lanes.submit("t", job());
    lanes.submit("t", job());
    lanes.submit("t", job()); // over the two slots: waits in the lane
    pending.shift()!("failed");
    await settle();
    expect(released).toEqual([1_000 + 1_000]);
  });
});

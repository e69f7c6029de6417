// The lanes of the scheduler (src/mta/queue/lanes.ts) over a real destination table: no more
// workers than the destination allows, the rows next in line built ahead (one per busy worker),
// and rows a suspended destination cannot run handed back.
import { describe, expect, test } from "bun:test";
import { createLanes } from "../../../src/mta/queue/lanes.ts";
import { createDestinationTable } from "../../../src/mta/queue/destinations.ts";
import { BUILT_IN_AUTOMATION, BUILT_IN_PROVIDERS, DEFAULT_LIMITS } from "../../../src/mta/shaping/rules.ts";
import type { StoredRecipient } from "../../../src/core/store-port.ts";

const now = 1_000_000;
const row = (i: number) => ({ id: `r${i}`, rcptDomain: "small.test" }) as StoredRecipient;

function setup() {
  const table = createDestinationTable({ shaping: { defaults: { ...DEFAULT_LIMITS, initialConnections: 2 }, providers: BUILT_IN_PROVIDERS, automation: BUILT_IN_AUTOMATION },
    routes: { "small.test": "127.0.0.1:2526" }, mxHostsOf: async () => [], now: () => now, onResolved: () => {} });
  const dest = table.of("small.test")!;
  const running: { id: string; done: () => void }[] = [];
  const prepared: string[] = [];
  const givenBack: string[] = [];
  const lanes = createLanes({
    table,
    attempt: (_zone, _dest, r) => new Promise<void>((resolve) => running.push({ id: r.id, done: resolve })),
    giveBack: (_zone, _dest, rows) => givenBack.push(...rows.map((r) => r.id)),
    prepare: (_zone, r) => { if (!prepared.includes(r.id)) prepared.push(r.id); },
    track: () => {},
  });
  return { table, dest, lanes, running, prepared, givenBack };
}

describe("the scheduler's lanes", () => {
  test("two workers run; the next row of each is built while they wait, and the next after as each ends", async () => {
    const { dest, lanes, running, prepared } = setup();
    lanes.enqueue(dest, "us", [1, 2, 3, 4, 5, 6].map(row));
    expect(running.map((r) => r.id)).toEqual(["r1", "r2"]);
    // The first worker looks ahead before the second has taken r2: r2's attempt takes that build.
    expect(prepared).toEqual(["r2", "r3", "r4"]);
    running.shift()!.done();
    await Bun.sleep(0);
    expect(running.map((r) => r.id)).toEqual(["r2", "r3"]);
    expect(prepared).toEqual(["r2", "r3", "r4", "r5"]);
  });

  test("a suspended destination's waiting rows are handed back, not built", async () => {
    const { table, lanes, running, prepared, givenBack } = setup();
    const yahoo = table.of("yahoo.com")!;
    table.start(yahoo, 1);
    table.finish(yahoo, { kind: "deferred", code: 421, message: "421 4.7.0 [TSS04] Messages from 1.2.3.4 temporarily deferred" });
    lanes.enqueue(yahoo, "us", [1, 2, 3].map(row));
    expect(running).toEqual([]);
    expect(prepared).toEqual([]);
    expect(givenBack).toEqual(["r1", "r2", "r3"]);
  });
});

// The stats read over a real store: the same facts from live events and once retention rolled them
// up, and no event counted twice or missed when a sweep commits between the read's two halves.
import { expect, test } from "bun:test";
import type { MessageEvent } from "../../../src/core/model.ts";
import type { ZoneStore } from "../../../src/core/store-port.ts";
import { openSqliteStore } from "../../../src/store/sqlite/index.ts";
import { newId } from "../../../src/core/ids.ts";
import { foldStats } from "../../../src/core/stats/rollup.ts";
import { encodeStatKey } from "../../../src/core/stats/stat-key.ts";
import { readStatFacts, type StatFact } from "../../../src/core/stats/facts.ts";

const H = 3_600_000;
const T = 500_000 * H;
const ev = (type: MessageEvent["type"], at: number, extra: Partial<MessageEvent> = {}): MessageEvent =>
  ({ id: newId(at), type, messageId: "m1", recipient: "a@dest.test", domain: "a.test", timestamp: at, tags: ["t"], metadata: {}, ...extra });
const events = [ev("accepted", T + 1), ev("delivered", T + 2, { attempt: 2 }), ev("opened", T + 3, { firsts: ["once"] }), ev("opened", T + 4)];

/** Facts summed per hour and key: what every surface counts. */
const counted = (facts: StatFact[], withTags = false) => {
  const out: Record<string, number> = {};
  for (const f of facts) {
    const k = `${Math.floor(f.at / H) - T / H} ${encodeStatKey(f.key)}${withTags ? ` ${f.tags.join(",")}` : ""}`;
    out[k] = (out[k] ?? 0) + f.n;
  }
  return out;
};

test("live events and their rollups read as the same facts, per tag too; legacy opens carry who they were", async () => {
  const store = await openSqliteStore(":memory:", ["us"]);
  const z = store.zone("us");
  await z.applyOutcomes([], events, [], T);
  const live = await readStatFacts([z], "a.test", { begin: T, end: T + H - 1 });
  expect(live.find((f) => f.key.type === "opened" && !f.key.firsts)?.who).toBe("m1\na@dest.test");
  expect(await z.sweepEvents(T + H, 100, foldStats)).toBe(4);
  const rolled = await readStatFacts([z], "a.test", { begin: T, end: T + H - 1 });
  expect(rolled.every((f) => f.who === undefined)).toBe(true);
  // The legacy open got its firsts at the fold (the flagged one before it was the first).
  expect(counted(live)).toEqual({ "0 accepted": 1, "0 delivered;retry": 1, "0 opened;firsts=once": 1, "0 opened": 1 });
  expect(counted(rolled)).toEqual({ "0 accepted": 1, "0 delivered;retry": 1, "0 opened;firsts=once": 1, "0 opened;firsts=": 1 });
  expect(counted(await readStatFacts([z], "a.test", { begin: T, end: T + H - 1, tags: ["t"] }), true)).toEqual(
    { "0 accepted t": 1, "0 delivered;retry t": 1, "0 opened;firsts=once t": 1, "0 opened;firsts= t": 1 });
  await store.close();
});

test("a sweep that commits between the read of the events and of the rollups is read again, not counted twice", async () => {
  const store = await openSqliteStore(":memory:", ["us"]);
  const z = store.zone("us");
  await z.applyOutcomes([], events, [], T);
  let reads = 0;
  // The first rollup read finds nothing; the sweep then commits before the events are read.
  const racing = { ...z, searchEvents: async (q: Parameters<ZoneStore["searchEvents"]>[0]) => z.searchEvents(q),
    statRollups: async (q: Parameters<ZoneStore["statRollups"]>[0]) => {
      const rows = await z.statRollups(q);
      if (reads++ === 0) await z.sweepEvents(T + H, 2, foldStats);
      return rows;
    } } as ZoneStore;
  const facts = await readStatFacts([racing], "a.test", { begin: T, end: T + H - 1 });
  expect(reads).toBe(3);
  expect(facts.reduce((n, f) => n + f.n, 0)).toBe(4);
  await store.close();
});

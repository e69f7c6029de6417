// The source choice on a real (SQLite) store: warming sources first up to their cap, shared by two
// nodes' selectors; warm sources in turn; a named address; nothing when only capped ones remain.
import { afterEach, describe, expect, test } from "bun:test";
import { openSqliteStore } from "../../../src/store/sqlite/index.ts";
import { createEgressDirectory } from "../../../src/core/egress/directory.ts";
import { createEgressSelector } from "../../../src/mta/egress/selector.ts";
import { hourOf, hourStartMs } from "../../../src/core/egress/warmup-schedule.ts";
import { createLogger } from "../../../src/log.ts";
import type { Store } from "../../../src/core/store-port.ts";

const NOW = Date.parse("2026-11-27T10:30:00Z"); // day 2 of a warm-up started 2026-11-26: 28 an hour
const src = (source_address: string, warmup_start = "") => ({ source_address, ehlo: "", warmup_start });
const log = createLogger({ level: "silent" });
let store: Store | null = null;
afterEach(async () => { await store?.close(); store = null; });

function setup(pools: Record<string, string[]>) {
  store = openSqliteStore(":memory:", ["us"]);
  const directory = createEgressDirectory({
    egress: { new: src("127.0.0.2", "2026-11-26"), warm1: src("127.0.0.3"), warm2: src("127.0.0.4"), lone: src("127.0.0.5", "2026-11-27") },
    pools: Object.fromEntries(Object.entries(pools).map(([k, v]) => [k, { sources: v }])),
  }, "mta.test");
  const selector = () => createEgressSelector({ directory, counters: store!.control, now: () => NOW, log });
  return { selector };
}

const nameOf = (c: Awaited<ReturnType<ReturnType<typeof createEgressSelector>["choose"]>>) => ("source" in c ? c.source.name : "wait");

describe("choosing the egress source", () => {
  test("two nodes share a warming address's cap; the rest goes to the warm ones in turn", async () => {
    const { selector } = setup({ default: ["new", "warm1", "warm2"] });
    const [a, b] = [selector(), selector()];
    const picks: string[] = [];
    for (let i = 0; i < 20; i++) picks.push(nameOf(await a.choose("default")), nameOf(await b.choose("default")));
    expect(picks.filter((p) => p === "new")).toHaveLength(28);
    expect(picks.slice(0, 28).every((p) => p === "new")).toBe(true);
    expect(picks.slice(28)).toEqual(["warm1", "warm1", "warm2", "warm2", "warm1", "warm1", "warm2", "warm2", "warm1", "warm1", "warm2", "warm2"]);
    await a.close();
    await b.close();
    expect(await store!.control.egressSends(hourOf(NOW))).toEqual({ new: 28, warm1: 6, warm2: 6 });
  });

  test("a pool of warming addresses only: nothing above the cap, until the next hour", async () => {
    const { selector } = setup({ default: ["lone"] });
    const s = selector();
    const picks = [];
    for (let i = 0; i < 22; i++) picks.push(await s.choose("default"));
    expect(picks.slice(0, 20).map(nameOf)).toEqual(Array(20).fill("lone"));
    expect(picks[20]).toEqual({ waitUntil: hourStartMs(hourOf(NOW) + 1), reason: "warm-up cap of lone reached; next hour" });
  });

  test("a named address wins over the pool; an unknown pool falls back to the default", async () => {
    const { selector } = setup({ default: ["warm1"], bulk: ["warm2"] });
    const s = selector();
    expect(nameOf(await s.choose("bulk", "127.0.0.3"))).toBe("warm1");
    expect(nameOf(await s.choose("bulk"))).toBe("warm2");
    expect(nameOf(await s.choose("removed-since"))).toBe("warm1");
    await s.close();
  });
});

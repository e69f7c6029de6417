// The scheduler's table of destinations (src/mta/queue/destinations.ts) with a clock and an MX
// table in hand: keys resolved to destinations (without DNS when a provider or route says so),
// the room a destination has as attempts start and end, feedback lowering it, suspension, a rate,
// and the other nodes' attempts counted against `connections`.
import { describe, expect, test } from "bun:test";
import { createDestinationTable } from "../../../src/mta/queue/destinations.ts";
import { BUILT_IN_AUTOMATION, BUILT_IN_PROVIDERS, DEFAULT_LIMITS } from "../../../src/mta/shaping/rules.ts";
import { parseRate } from "../../../src/config/shaping.ts";

function table(opts: { rate?: string } = {}) {
  let now = 1_000_000;
  const mx: Record<string, string[]> = { "workspace.test": ["aspmx.l.google.com"], "small.test": ["mx.small.test"] };
  let resolved = 0;
  const defaults = { ...DEFAULT_LIMITS, rate: opts.rate ? parseRate(opts.rate)! : null };
  const t = createDestinationTable({ shaping: { defaults, providers: BUILT_IN_PROVIDERS, automation: BUILT_IN_AUTOMATION },
    routes: { "routed.test": "127.0.0.1:2526" }, mxHostsOf: async (d) => mx[d] ?? [], now: () => now, onResolved: () => { resolved++; } });
  return { t, tick: (ms: number) => { now += ms; }, resolved: () => resolved };
}

describe("the destination table", () => {
  test("providers and routes are known at once; other domains after their MX look-up", async () => {
    const { t, resolved } = table();
    expect(t.of("gmail.com")!.dest.name).toBe("gmail");
    expect(t.of("routed.test")!.dest.name).toBe("127.0.0.1:2526");
    expect(t.of("workspace.test")).toBeNull();
    await Bun.sleep(0);
    expect(resolved()).toBe(1);
    expect(t.of("workspace.test")!.dest.name).toBe("gmail");
    expect(t.of("workspace.test")).toBe(t.of("gmail.com"));
    expect(t.snapshot().find((d) => d.name === "gmail")!.keys.sort()).toEqual(["gmail.com", "workspace.test"]);
  });

  test("room to claim: twice the concurrency less the claimed; answers grow it, pushback shrinks it", () => {
    const { t } = table();
    const g = t.of("gmail.com")!;
    expect([t.allowedNow(g), t.room(g)]).toEqual([5, 10]);
    t.start(g, 10);
    expect(t.room(g)).toBe(0);
    t.finish(g, { kind: "delivered", code: 250, message: "250 ok" });
    expect([t.allowedNow(g), t.room(g)]).toEqual([6, 3]); // 9 claimed, window 6
    t.finish(g, { kind: "deferred", code: 421, message: "421 4.7.0 try later" });
    expect([t.allowedNow(g), t.room(g)]).toEqual([5, 2]); // 8 claimed, window 5
    t.finish(g, null); // not attempted: no feedback
    expect(t.room(g)).toBe(3);
  });

  test("a suspension empties the room until it ends, and is the next opening", () => {
    const { t, tick } = table();
    const y = t.of("yahoo.com")!;
    t.start(y, 1);
    t.finish(y, { kind: "deferred", code: 421, message: "421 4.7.0 [TSS04] Messages from 1.2.3.4 temporarily deferred" });
    expect([t.allowedNow(y), t.room(y)]).toEqual([0, 0]);
    expect(t.nextOpening()).toBe(1_000_000 + 2 * 3_600_000);
    tick(2 * 3_600_000);
    expect(t.allowedNow(y)).toBe(4);
  });

  test("a rate: no more starts than its tokens", () => {
    const { t, tick } = table({ rate: "2/s" });
    const d = t.of("routed.test")!;
    expect(t.room(d)).toBe(2);
    t.start(d, 2);
    t.finish(d, null);
    t.finish(d, null);
    expect(t.room(d)).toBe(0);
    expect(t.nextOpening()).toBe(1_000_000 + 500);
    tick(500);
    expect(t.room(d)).toBe(1);
  });

  test("the other nodes' attempts in flight count against connections", () => {
    const { t } = table();
    const g = t.of("gmail.com")!;
    t.setOthers(new Map([["gmail", 18]]));
    expect(t.allowedNow(g)).toBe(2);
    t.setOthers(new Map([["gmail", 25]]));
    expect([t.allowedNow(g), t.room(g)]).toEqual([0, 0]);
    t.setOthers(new Map());
    expect(t.allowedNow(g)).toBe(5);
  });
});

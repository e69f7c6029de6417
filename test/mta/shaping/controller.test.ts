import { describe, expect, test } from "bun:test";
import { allowed, CEILING_HOLD_MS, initialState, nextOpening, spend, step, tokensNow, type ControllerOutcome, type ControllerState } from "../../../src/mta/shaping/controller.ts";
import type { ShapingLimits } from "../../../src/mta/shaping/rules.ts";
import { parseRate } from "../../../src/config/shaping.ts";

const L: ShapingLimits = { connections: 8, initialConnections: 5, messagesPerConnection: 100, rate: null };
const T = 1_000_000;
const ok: ControllerOutcome = { kind: "answered" };
const busy: ControllerOutcome = { kind: "pushback", reply: "421 4.7.0 Too many connections" };
const run = (outcomes: ControllerOutcome[], limits = L, at = T, s = initialState(limits, at)): ControllerState =>
  outcomes.reduce((st, o) => step(st, limits, o, at), s);

describe("the concurrency controller (after Postfix qmgr_queue.c)", () => {
  const table: [string, ControllerOutcome[], number][] = [
    ["starts at initial_connections", [], 5],
    ["+1 per answered delivery", [ok, ok], 7],
    ["never above connections", [ok, ok, ok, ok, ok, ok], 8],
    ["-1 per pushback", [busy, busy], 3],
    ["never below one", [busy, busy, busy, busy, busy, busy, busy], 1],
    ["after a pushback, the failing window is the ceiling", [ok, ok, busy, ok, ok, ok], 6],
    ["a burst of pushbacks ends where the receiver copes", [ok, ok, ok, busy, busy, busy, busy, ok, ok], 4],
  ];
  for (const [what, outcomes, want] of table) test(what, () => expect(run(outcomes).concurrency).toBe(want));

  test("the ceiling holds for CEILING_HOLD_MS, then the window may probe one higher", () => {
    const s = run([busy]); // 4, ceiling 4
    expect(step(s, L, ok, T + CEILING_HOLD_MS - 1).concurrency).toBe(4);
    expect(step(s, L, ok, T + CEILING_HOLD_MS).concurrency).toBe(5);
  });
  test("initial_connections above connections starts at connections", () => {
    expect(initialState({ ...L, connections: 2 }, T).concurrency).toBe(2);
  });
  test("suspend: nothing until the end; throttle: one connection until the end", () => {
    const s = run([{ kind: "suspend", reply: "421 4.7.0 [TSS04]", untilMs: T + 7_200_000 }]);
    expect([allowed(s, L, T), allowed(s, L, T + 7_200_000)]).toEqual([0, 4]);
    expect(s.lastThrottle).toBe("421 4.7.0 [TSS04]");
    expect(nextOpening(s, null, T)).toBe(T + 7_200_000);
    const t = run([{ kind: "throttle", reply: "451 4.7.500 Server busy", untilMs: T + 60_000 }]);
    expect([allowed(t, L, T), allowed(t, L, T + 60_000)]).toEqual([1, 4]);
  });
  test("a rate is a token bucket: spent by starts, refilled with time", () => {
    const rate = parseRate("10/s")!;
    const limits = { ...L, rate };
    let s = initialState(limits, T);
    expect(tokensNow(s, rate, T)).toBe(10);
    s = spend(s, rate, 10, T);
    expect(tokensNow(s, rate, T)).toBe(0);
    expect(nextOpening(s, rate, T)).toBe(T + 100);
    expect(tokensNow(s, rate, T + 500)).toBe(5);
    expect(tokensNow(s, rate, T + 5_000)).toBe(10);
    expect(tokensNow(s, null, T)).toBe(Infinity);
  });
  test("rates parse as N per unit", () => {
    expect([parseRate("100/s")?.perMs, parseRate("5000/h")?.perMs, parseRate("10/min")?.count, parseRate(""), parseRate("fast")]).toEqual([1000, 3_600_000, 10, null, undefined]);
  });
});

// The incident state machine by tables on a fake clock: fires once per (rule, subject), reminds
// after 24 hours, resolves only after an hour back under, and fires anew (new id) after that.
import { describe, expect, test } from "bun:test";
import { step, type Observation } from "../../src/alerts/incident.ts";
import type { AlertIncident } from "../../src/core/alerts-port.ts";

const H = 3_600_000;
const T0 = 1_800_000_000_000;
const over: Observation = { firing: true, value: 0.1, threshold: 0.05 };
const under: Observation = { firing: false, value: 0.01, threshold: 0.05 };

/** Runs observations at hour offsets; returns what each step notified and the state after it. */
function run(rows: [number, Observation][]) {
  let incident: AlertIncident | null = null;
  let n = 0;
  return rows.map(([hour, obs]) => {
    const s = step(incident, { ruleId: "hard_bounce_rate", subject: "a.test" }, obs, T0 + hour * H, () => `al${++n}`);
    incident = s.incident;
    return [hour, s.notify, incident?.state ?? null, incident?.id ?? null];
  });
}

describe("incident steps", () => {
  test.each([
    ["under and nothing open: nothing", [[0, under], [1, under]], [[0, null, null, null], [1, null, null, null]]],
    ["over: fires once, then stays quiet while over", [[0, over], [0.5, over], [23.9, over]],
      [[0, "firing", "firing", "al1"], [0.5, null, "firing", "al1"], [23.9, null, "firing", "al1"]]],
    ["still over 24 h after firing: one reminder, the next 24 h later", [[0, over], [24, over], [30, over], [48, over]],
      [[0, "firing", "firing", "al1"], [24, "reminder", "reminder", "al1"], [30, null, "reminder", "al1"], [48, "reminder", "reminder", "al1"]]],
    ["back under: resolves an hour later, not before", [[0, over], [2, under], [2.5, under], [3, under]],
      [[0, "firing", "firing", "al1"], [2, null, "firing", "al1"], [2.5, null, "firing", "al1"], [3, "resolved", "resolved", "al1"]]],
    ["a dip shorter than an hour: no resolution, no new firing", [[0, over], [1, under], [1.9, over], [2.5, under], [3.4, under]],
      [[0, "firing", "firing", "al1"], [1, null, "firing", "al1"], [1.9, null, "firing", "al1"], [2.5, null, "firing", "al1"], [3.4, null, "firing", "al1"]]],
    ["over again after resolving: a new alert with a new id", [[0, over], [1, under], [2, under], [5, over]],
      [[0, "firing", "firing", "al1"], [1, null, "firing", "al1"], [2, "resolved", "resolved", "al1"], [5, "firing", "firing", "al2"]]],
    ["a reminder resolves like a firing", [[0, over], [24, over], [25, under], [26, under]],
      [[0, "firing", "firing", "al1"], [24, "reminder", "reminder", "al1"], [25, null, "reminder", "al1"], [26, "resolved", "resolved", "al1"]]],
  ] as [string, [number, Observation][], unknown[]][])("%s", (_name, rows, want) => {
    expect(run(rows) as unknown[]).toEqual(want);
  });

  test("the incident keeps when it fired, what it last saw, and when it went under", () => {
    const key = { ruleId: "block_rate", subject: "b.test" };
    const a = step(null, key, { firing: true, value: 0.2, threshold: 0.1 }, T0, () => "x").incident!;
    expect(a).toEqual({ id: "x", ruleId: "block_rate", subject: "b.test", state: "firing", value: 0.2, threshold: 0.1, firedAt: T0, notifiedAt: T0,
      clearSince: null, resolvedAt: null, updatedAt: T0 });
    const b = step(a, key, { firing: false, value: 0.05, threshold: 0.1 }, T0 + H, () => "y").incident!;
    expect(b).toMatchObject({ id: "x", value: 0.05, clearSince: T0 + H, state: "firing" });
    const c = step(b, key, { firing: false, value: 0.04, threshold: 0.1 }, T0 + 2 * H, () => "y").incident!;
    expect(c).toMatchObject({ id: "x", state: "resolved", clearSince: T0 + H, resolvedAt: T0 + 2 * H, firedAt: T0 });
  });
});

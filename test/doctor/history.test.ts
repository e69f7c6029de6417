// first_seen/last_seen and the listing changes a run makes (a pure merge, tested as a table).
import { expect, test } from "bun:test";
import { mergeBlocklist } from "../../src/doctor/history.ts";
import type { BlocklistEntry } from "../../src/core/blocklist-port.ts";
import type { BlocklistState } from "../../src/doctor/types.ts";

const T = 1_000_000;
const seen = (state: BlocklistState, answer = state === "listed" ? "127.0.0.2" : "") => ({ subject: "192.0.2.1", kind: "ip" as const, zone: "z", state, answer, cause: "" });

/** Runs the observations in order, one a minute; returns the last entry and every change as "from->to". */
function play(...states: BlocklistState[]) {
  let kept: BlocklistEntry[] = [];
  const changes: string[] = [];
  states.forEach((s, i) => {
    const r = mergeBlocklist(kept, [seen(s)], T + i * 60_000);
    kept = r.entries;
    changes.push(...r.changes.map((c) => `${c.from}->${c.to}`));
  });
  return { entry: kept[0]!, changes };
}

test("a first listing is a change; a first clear is not", () => {
  expect(play("listed").changes).toEqual(["unknown->listed"]);
  expect(play("clear").changes).toEqual([]);
});

test("listed and clear in turn: one change each way", () => {
  expect(play("clear", "listed", "listed", "clear").changes).toEqual(["clear->listed", "listed->clear"]);
});

test("unknown in between neither delists nor relists", () => {
  expect(play("listed", "unknown", "unknown", "listed").changes).toEqual(["unknown->listed"]);
  expect(play("listed", "unknown", "clear").changes).toEqual(["unknown->listed", "listed->clear"]);
  expect(play("clear", "unknown").entry).toMatchObject({ state: "unknown", lastKnown: "clear" });
});

test("first_seen is when the current state began, last_seen the latest observation", () => {
  expect(play("listed", "listed", "listed").entry).toMatchObject({ firstSeen: T, lastSeen: T + 120_000 });
  expect(play("clear", "listed", "listed").entry).toMatchObject({ firstSeen: T + 60_000, lastSeen: T + 120_000 });
  expect(play("listed", "unknown").entry).toMatchObject({ state: "unknown", firstSeen: T + 60_000 });
});

test("each change says every zone still listing the subject", () => {
  const at = (zone: string, state: BlocklistState) => ({ ...seen(state), zone });
  const first = mergeBlocklist([], [at("a", "listed"), at("b", "listed")], T);
  expect(first.changes.map((c) => c.listedIn)).toEqual([["a", "b"], ["a", "b"]]);
  const second = mergeBlocklist(first.entries, [at("a", "clear"), at("b", "unknown")], T + 1);
  expect(second.changes).toEqual([expect.objectContaining({ zone: "a", to: "clear", listedIn: ["b"] })]);
  const third = mergeBlocklist(second.entries, [at("b", "clear")], T + 2);
  expect(third.changes).toEqual([expect.objectContaining({ zone: "b", to: "clear", listedIn: [] })]);
});

import { expect, test } from "bun:test";
import { newestOf, planClaims } from "../../../src/mta/queue/claim-plan.ts";

const NOW = 1_000;
const due = (...keys: string[]) => keys.map((key) => ({ key, nextDueAt: NOW - 1 }));

test("a destination's room is shared among all its keys with mail due, not given to the first", () => {
  // 50 domains behind one route: each key gets part of the 40, none the whole.
  const keys = due(...Array.from({ length: 50 }, (_, i) => `dest${i}.test`));
  const plan = planClaims({ keys, destOf: () => "hop", roomOf: () => 40, room: 100, now: NOW, turn: 0 });
  expect(plan.wants.length).toBe(40);
  expect(plan.wants.every((w) => w.limit === 1)).toBe(true);
  expect(plan.wants.reduce((n, w) => n + w.limit, 0)).toBe(40);
});

test("equal parts, the remainder to keys taken in turn, so every key gets its share across claims", () => {
  const keys = due("a.test", "b.test", "c.test");
  const plan = (turn: number) => planClaims({ keys, destOf: () => "hop", roomOf: () => 7, room: 100, now: NOW, turn });
  expect(plan(0).wants).toEqual([{ key: "a.test", limit: 3, newest: 1 }, { key: "b.test", limit: 2, newest: 1 }, { key: "c.test", limit: 2, newest: 1 }]);
  expect(plan(1).wants).toEqual([{ key: "b.test", limit: 3, newest: 2 }, { key: "c.test", limit: 2, newest: 1 }, { key: "a.test", limit: 2, newest: 1 }]);
  // Fewer rows of room than keys: over three claims each key is asked for once.
  const small = [0, 1, 2].flatMap((turn) => planClaims({ keys, destOf: () => "hop", roomOf: () => 1, room: 100, now: NOW, turn }).wants.map((w) => w.key));
  expect(small.sort()).toEqual(["a.test", "b.test", "c.test"]);
});

test("separate destinations each get their own room, within the claim's total", () => {
  const keys = due("gmail.com", "workspace.test", "outlook.com");
  const destOf = (k: string) => (k === "outlook.com" ? "outlook" : "gmail");
  const plan = planClaims({ keys, destOf, roomOf: (d) => (d === "gmail" ? 10 : 4), room: 100, now: NOW, turn: 0 });
  expect(plan.wants.map(({ key, limit }) => ({ key, limit }))).toEqual([{ key: "gmail.com", limit: 5 }, { key: "workspace.test", limit: 5 }, { key: "outlook.com", limit: 4 }]);
  const capped = planClaims({ keys, destOf, roomOf: (d) => (d === "gmail" ? 10 : 4), room: 12, now: NOW, turn: 0 });
  expect(capped.wants.reduce((n, w) => n + w.limit, 0)).toBe(12);
});

test("keys without a destination yet, of a full destination or not due are passed over; the earliest not due is reported", () => {
  const keys = [{ key: "looking-up.test", nextDueAt: NOW - 5 }, { key: "full.test", nextDueAt: NOW - 5 },
    { key: "later.test", nextDueAt: NOW + 50 }, { key: "soon.test", nextDueAt: NOW + 20 }, { key: "full-later.test", nextDueAt: NOW + 1 }];
  const destOf = (k: string) => (k === "looking-up.test" ? undefined : k.startsWith("full") ? "full" : "open");
  const plan = planClaims({ keys, destOf, roomOf: (d) => (d === "full" ? 0 : 5), room: 100, now: NOW, turn: 0 });
  expect(plan.wants).toEqual([]);
  expect(plan.nextDue).toBe(NOW + 20);
});

test("half of each key's claim is its most recently due rows, the odd one every other turn", () => {
  expect([0, 1].map((turn) => newestOf(1, turn))).toEqual([0, 1]);
  expect([0, 1].map((turn) => newestOf(4, turn))).toEqual([2, 2]);
  expect([0, 1].map((turn) => newestOf(7, turn))).toEqual([3, 4]);
});

// Delivery's turns: one per event-loop turn normally; while API callers wait, one per CALLERS_FIRST_MS.
import { expect, test } from "bun:test";
import { CALLERS_FIRST_MS, createTurns } from "../../../src/mta/delivery/turns.ts";

async function resolvedWithin(turns: () => Promise<void>, count: number, ms: number): Promise<number> {
  let done = 0;
  for (let i = 0; i < count; i++) void turns().then(() => { done++; });
  await Bun.sleep(ms);
  return done;
}

test("with no caller waiting every turn comes within a few event-loop turns, in order", async () => {
  const turns = createTurns(() => false);
  const order: number[] = [];
  await Promise.all([0, 1, 2, 3].map((i) => turns().then(() => order.push(i))));
  expect(order).toEqual([0, 1, 2, 3]);
  expect(await resolvedWithin(createTurns(() => false), 5, 20)).toBe(5);
});

test("while callers wait, turns are spaced CALLERS_FIRST_MS apart: the second is not given early", async () => {
  expect(CALLERS_FIRST_MS).toBeGreaterThanOrEqual(50);
  // A slow machine can only give fewer turns in the window, never more.
  expect(await resolvedWithin(createTurns(() => true), 5, CALLERS_FIRST_MS / 2)).toBe(0);
  const turns = createTurns(() => true);
  const started = performance.now();
  await turns();
  await turns();
  expect(performance.now() - started).toBeGreaterThanOrEqual(2 * CALLERS_FIRST_MS - 5);
});

test("when the callers are gone the next turn is immediate again", async () => {
  let waiting = true;
  const turns = createTurns(() => waiting);
  await turns();
  waiting = false;
  expect(await resolvedWithin(turns, 3, 20)).toBe(3);
});

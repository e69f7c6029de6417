// The doctor's schedule with real short intervals: runs at start and again after each interval,
// a failing run is logged and the schedule goes on, interval 0 never runs, stop waits for a run.
import { expect, test } from "bun:test";
import { createSchedule, FIRST_RUN_MAX_MS } from "../../src/doctor/schedule.ts";

test("runs first after the interval, again after each, on after a failure; stop ends it", async () => {
  let runs = 0;
  const errors: string[] = [];
  const s = createSchedule({ intervalMs: 30, run: async () => { runs++; if (runs === 2) throw new Error("dns down"); }, log: { error: (_m, f) => { errors.push(String(f?.error)); } } });
  s.start();
  s.start(); // a second start changes nothing
  const until = Date.now() + 3000;
  while (runs < 4 && Date.now() < until) await Bun.sleep(5);
  expect(runs).toBeGreaterThanOrEqual(4);
  expect(errors).toEqual(["Error: dns down"]);
  await s.stop();
  const at = runs;
  await Bun.sleep(100);
  expect(runs).toBe(at);
});

test("interval 0: only on demand", async () => {
  let runs = 0;
  const s = createSchedule({ intervalMs: 0, run: async () => { runs++; } });
  s.start();
  await Bun.sleep(50);
  expect(runs).toBe(0);
  await s.stop();
});

test("the first run comes at most 30 s after start; stop waits for the run in progress, but not for ever", async () => {
  expect(FIRST_RUN_MAX_MS).toBe(30_000);
  let done = false;
  const s = createSchedule({ intervalMs: 3_600_000, firstRunMs: 0, run: async () => { await Bun.sleep(80); done = true; } });
  s.start();
  await Bun.sleep(10);
  await s.stop();
  expect(done).toBe(true);
  const hung = createSchedule({ intervalMs: 1000, firstRunMs: 0, run: () => new Promise(() => {}) });
  hung.start();
  await Bun.sleep(10);
  const t0 = Date.now();
  await hung.stop();
  expect(Date.now() - t0).toBeLessThan(1500);
});

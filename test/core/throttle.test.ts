// Failed-authentication throttling on a fake clock: free failures, then lockouts that double,
// forgetting after a quiet hour, and a table that stays bounded.
import { expect, test } from "bun:test";
import { createThrottle } from "../../src/core/throttle.ts";

test("five free failures, then lockouts that double; a success clears the login only", () => {
  let now = 0;
  const t = createThrottle({ now: () => now });
  for (let i = 0; i < 4; i++) t.fail(["ip:a", "login:x"]);
  expect(t.lockedFor(["ip:a"])).toBe(0);
  t.fail(["ip:a", "login:x"]);
  expect(t.lockedFor(["login:x"])).toBe(1_000);
  now += 1_000;
  expect(t.lockedFor(["ip:a", "login:x"])).toBe(0);
  expect(t.fail(["ip:a", "login:x"])).toBe(600);
  expect(t.lockedFor(["ip:a"])).toBe(2_000);
  t.succeed("login:x");
  expect(t.lockedFor(["login:x"])).toBe(0);
  expect(t.lockedFor(["ip:a"])).toBe(2_000);
  now += 61 * 60_000;
  expect(t.lockedFor(["ip:a"])).toBe(0);
});

test("the table keeps at most maxSubjects entries", () => {
  const t = createThrottle({ now: () => 0, maxSubjects: 100 });
  for (let i = 0; i < 1000; i++) t.fail([`ip:${i}`]);
  expect(t.size()).toBe(100);
});

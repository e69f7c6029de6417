// serve's warm-up (cli/warm-up.ts): real sends through every vendor surface of a scratch app,
// all accepted (so the whole accept path ran, not an early refusal), and nothing left behind.
import { expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { WARM_UP_ROUNDS, warmUp } from "../../cli/warm-up.ts";

const scratchDirs = () => readdirSync(tmpdir()).filter((n) => n.startsWith("postern-warm-up-"));

test("the warm-up's sends are all accepted, on SendGrid, SparkPost and Mailgun, and its scratch app is removed", async () => {
  const before = new Set(scratchDirs());
  expect(await warmUp()).toBe(3 * WARM_UP_ROUNDS);
  expect(scratchDirs().filter((n) => !before.has(n))).toEqual([]);
}, 60_000);

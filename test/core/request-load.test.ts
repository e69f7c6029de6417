import { expect, test } from "bun:test";
import { createRequestLoad } from "../../src/core/request-load.ts";

test("counts open requests, busy from eight, and a failed request is no longer open", async () => {
  const load = createRequestLoad();
  const gates: (() => void)[] = [];
  const open = Array.from({ length: 8 }, () => load.around(() => new Promise<void>((r) => gates.push(r))));
  expect(load.open()).toBe(8);
  expect(load.busy()).toBe(true);
  gates.shift()!();
  await open[0];
  expect(load.open()).toBe(7);
  expect(load.busy()).toBe(false);
  await expect(load.around(async () => { throw new Error("boom"); })).rejects.toThrow("boom");
  expect(load.open()).toBe(7);
  gates.forEach((g) => g());
  await Promise.all(open);
  expect(load.open()).toBe(0);
});

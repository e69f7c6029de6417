import { expect, test } from "bun:test";
import { tmpdir } from "node:os";
import { freeSpaceOf } from "../../src/ops/free-space.ts";

test("free space of a real directory is a positive byte count; a missing one is null", () => {
  expect(freeSpaceOf(tmpdir())()).toBeGreaterThan(0);
  expect(freeSpaceOf("/nonexistent/postern")()).toBeNull();
});

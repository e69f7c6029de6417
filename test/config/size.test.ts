import { expect, test } from "bun:test";
import { parseSize } from "../../src/config/size.ts";
import { loadConfig } from "../../src/config/load.ts";

test("sizes: bytes or KiB/MiB/GiB, 0 is off, anything else is refused", () => {
  expect(parseSize("0")).toBe(0);
  expect(parseSize("512")).toBe(512);
  expect(parseSize("40MiB")).toBe(40 * 1024 * 1024);
  expect(parseSize("1GiB")).toBe(1024 ** 3);
  expect(parseSize("1.5 KiB")).toBe(1536);
  expect(parseSize("1GB")).toBeNull();
  expect(parseSize("lots")).toBeNull();
});

test("[storage] min_free defaults to 1GiB and a bad value names the key", () => {
  expect(loadConfig({ file: null }).storage.min_free).toBe(1024 ** 3);
  expect(loadConfig({ file: null, env: { POSTERN_STORAGE_MIN_FREE: "40MiB" } }).storage.min_free).toBe(40 * 1024 ** 2);
  expect(() => loadConfig({ file: null, env: { POSTERN_STORAGE_MIN_FREE: "much" } })).toThrow(/storage\.min_free/);
  expect(loadConfig({ file: null }).server.shutdown_grace).toBe(30_000);
});

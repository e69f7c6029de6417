import { expect, test } from "bun:test";
import { join } from "node:path";
import { describeCheckout, release, releaseOf } from "../../cli/version.ts";
import pkg from "../../package.json" with { type: "json" };

test("from source the release is the package version and the checkout's git describe", () => {
  const described = describeCheckout(join(import.meta.dir, "../.."));
  expect(described).toMatch(/^[0-9a-z.-]+$/);
  expect(release()).toBe(`${pkg.version} (${described})`);
  expect(releaseOf("1.2.3", null)).toBe("1.2.3");
  expect(describeCheckout("/")).toBeNull();
});

test("postern --version prints it", () => {
  const r = Bun.spawnSync(["bun", join(import.meta.dir, "../../cli/main.ts"), "--version"]);
  expect(r.exitCode).toBe(0);
  expect(r.stdout.toString().trim()).toBe(release());
});

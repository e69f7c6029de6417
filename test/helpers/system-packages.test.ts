import { describe, expect, test } from "bun:test";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureSystemPackages, missingPackages, type Need, plan } from "./system-packages.ts";

const ROOT = join(import.meta.dir, "..", "..");

/**
 * The preload, its packages module and bunfig.toml in a world-readable scratch directory, with one
 * trivial test: `nobody` may not be able to read the checkout itself (a clone under a 0700 mktemp
 * directory), and the preload is what is under test, not the suite.
 */
function preloadSandbox(): string {
  const dir = mkdtempSync(join(tmpdir(), "postern-preload-"));
  mkdirSync(join(dir, "test", "helpers"), { recursive: true });
  for (const f of ["bunfig.toml", "test/preload.ts", "test/helpers/system-packages.ts"]) copyFileSync(join(ROOT, f), join(dir, f));
  writeFileSync(join(dir, "test", "probe.test.ts"), 'import { test } from "bun:test";\ntest("runs", () => {});\n');
  for (const d of [dir, join(dir, "test"), join(dir, "test", "helpers")]) chmodSync(d, 0o755);
  return dir;
}

describe("the test preload's Debian packages", () => {
  test("on this machine (the preload already ran) nothing is missing", () => {
    expect(missingPackages()).toEqual([]);
  });

  test("plan: nothing missing → nothing; root with apt-get → install; otherwise one message naming them", () => {
    expect(plan([], false, false)).toEqual({ action: "none" });
    expect(plan(["chromium", "pebble"], true, true)).toEqual({ action: "install", pkgs: ["chromium", "pebble"] });
    const fail = plan(["chromium", "pebble"], false, true);
    expect(fail.action).toBe("fail");
    expect(fail.action === "fail" && fail.message).toContain("chromium pebble");
    expect(plan(["spamd"], true, false).action).toBe("fail");
  });

  test("as root: one apt-get update, then one install of exactly the missing ones, and it says so", () => {
    let installed = false;
    const needs: Need[] = [{ pkg: "here", present: () => true }, { pkg: "gone", present: () => installed }];
    const ran: string[][] = [];
    const said: string[] = [];
    const error = ensureSystemPackages(needs, {
      isRoot: true, hasAptGet: true, say: (l) => said.push(l),
      run: (argv) => { ran.push(argv); if (argv[1] === "install") installed = true; return 0; },
    });
    expect(error).toBeNull();
    expect(ran.map((a) => a.slice(0, 2))).toEqual([["apt-get", "update"], ["apt-get", "install"]]);
    expect(ran[1]!.at(-1)).toBe("gone");
    expect(ran[1]).not.toContain("here");
    expect(said.join("\n")).toContain("installing gone");
  });

  test("as root, a package still absent after the install is an error naming it", () => {
    const error = ensureSystemPackages([{ pkg: "gone", present: () => false }], { isRoot: true, hasAptGet: true, say: () => {}, run: () => 0 });
    expect(error).toContain("gone");
  });

  test("without root, `bun test` stops at once with one message naming the packages", () => {
    // A real run as `nobody` (or this user when not root), with the console's browser pointed at a path that does not exist.
    const asUser = process.getuid?.() === 0 ? ["runuser", "-u", "nobody", "--"] : [];
    const dir = preloadSandbox();
    const proc = Bun.spawnSync([...asUser, "env", `PATH=${process.env.PATH}`, "HOME=/tmp", "CHROMIUM=/nonexistent/chromium",
      process.execPath, "test", "test/probe.test.ts"], { cwd: dir, stdout: "pipe", stderr: "pipe" });
    rmSync(dir, { recursive: true, force: true });
    const err = proc.stderr.toString();
    expect(proc.exitCode).not.toBe(0);
    expect(err).toContain("missing: chromium");
    expect(err).not.toContain("(pass)");
  });
});

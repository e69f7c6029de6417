// `postern serve` re-executes itself once with JavaScriptCore's options set (cli/jsc-tuning.ts):
// from source here, in the compiled binary in binary.test.ts.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JSC_OPTIONS, missingOptions, selfArgv } from "../../cli/jsc-tuning.ts";
import { writeConfig } from "../helpers/app.ts";
import { environOf } from "../helpers/proc.ts";

const MAIN = join(import.meta.dir, "../../cli/main.ts");
const dir = mkdtempSync(join(tmpdir(), "postern-jsc-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("selfArgv starts the same program again: from source with bun's flags, or the compiled binary", () => {
  expect(selfArgv("/src/cli/main.ts", ["bun", "/src/cli/main.ts", "serve"], "/usr/bin/bun", ["--smol"], "/src/cli"))
    .toEqual(["/usr/bin/bun", "--smol", "/src/cli/main.ts", "serve"]);
  expect(selfArgv("/$bunfs/root/postern", ["bun", "/$bunfs/root/postern", "--config", "x.toml", "serve"], "/usr/local/bin/postern", [], "/$bunfs/root"))
    .toEqual(["/usr/local/bin/postern", "--config", "x.toml", "serve"]);
  // Under `bun test`, or a script importing the CLI: nothing to re-execute.
  expect(selfArgv("/src/test/x.test.ts", ["bun", "test"], "/usr/bin/bun", [], "/src/cli")).toBeNull();
});

test("missingOptions leaves an option the user set alone", () => {
  expect(missingOptions({})).toEqual({ ...JSC_OPTIONS });
  const chosen = missingOptions({ BUN_JSC_forceRAMSize: "1073741824" });
  expect(chosen.BUN_JSC_forceRAMSize).toBeUndefined();
  expect(chosen.BUN_JSC_useFTLJIT).toBe("0");
  expect(missingOptions({ ...JSC_OPTIONS })).toEqual({});
});

test("serve runs with the options in its environment, same pid; a user's value is kept", async () => {
  const file = writeConfig(dir);
  const env = { PATH: process.env.PATH ?? "", HOME: dir, BUN_JSC_forceRAMSize: "1073741824" };
  const proc = Bun.spawn(["bun", MAIN, "--config", file, "serve"], { stdout: "pipe", stderr: "ignore", env });
  try {
    const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
    let out = "";
    while (!/listening/.test(out)) { const { value, done } = await reader.read(); if (done) break; out += new TextDecoder().decode(value); }
    expect(out).toMatch(/listening/);
    const environ = environOf(proc.pid);
    expect(environ.BUN_JSC_useFTLJIT).toBe("0");
    expect(environ.BUN_JSC_smallHeapGrowthFactor).toBe(JSC_OPTIONS.BUN_JSC_smallHeapGrowthFactor!);
    expect(environ.BUN_JSC_forceRAMSize).toBe("1073741824");
  } finally {
    proc.kill();
    await proc.exited;
  }
}, 30_000);

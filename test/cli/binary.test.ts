// The single executable: built by build.ts, run from a directory with no node_modules, it sets
// up a domain and delivers DKIM-signed mail through its signing workers to a local sink.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSink } from "../helpers/smtp-sink.ts";
import { JSC_OPTIONS } from "../../cli/jsc-tuning.ts";
import { environOf } from "../helpers/proc.ts";
import { release } from "../../cli/version.ts";

const ROOT = join(import.meta.dir, "../..");
const dir = mkdtempSync(join(tmpdir(), "postern-bin-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the compiled binary runs without node_modules and delivers signed mail", async () => {
  const bin = join(dir, "postern");
  const build = Bun.spawnSync(["bun", "run", "build.ts", bin], { cwd: ROOT });
  expect(build.exitCode).toBe(0);
  const sink = await startSink();
  const run = (...args: string[]) => Bun.spawnSync([bin, ...args], { cwd: dir, env: { PATH: process.env.PATH ?? "", HOME: dir } });
  // The release is the build's (package version and git describe), even run far from the checkout.
  expect(run("--version").stdout.toString().trim()).toBe(release());
  expect(release()).toMatch(/^\d+\.\d+\.\d+ \(\S+\)$/);
  expect(run("init").exitCode).toBe(0);
  const file = join(dir, "postern.toml");
  writeFileSync(file, readFileSync(file, "utf8").replace('# "example.org" = "127.0.0.1:2526"', `"*" = "127.0.0.1:${sink.port}"`)
    .replace('listen = "127.0.0.1:8025"', 'listen = "127.0.0.1:0"').replace('listen = "127.0.0.1:2525"', 'listen = "127.0.0.1:0"'));
  // The default signs on a worker thread: the binary's worker entrypoint must work.
  expect(readFileSync(file, "utf8")).toMatch(/^signing_workers = 1\b/m);
  expect(run("domain", "add", "bin.example").exitCode).toBe(0);
  expect(run("domain", "verify", "bin.example", "--force").exitCode).toBe(0);
  expect(run("send", "--from", "a@bin.example", "--to", "x@dest.test", "--subject", "compiled", "--text", "hello").exitCode).toBe(0);
  // A subject beyond ASCII goes to nodemailer's composer, which loads on first use (compose.ts): in the binary too.
  expect(run("send", "--from", "a@bin.example", "--to", "y@dest.test", "--subject", "compilé", "--text", "hello").exitCode).toBe(0);
  const server = Bun.spawn([bin, "serve"], { cwd: dir, stdout: "ignore", stderr: "ignore", env: { PATH: process.env.PATH ?? "", HOME: dir } });
  try {
    const received = await sink.waitFor(2, 20_000);
    const msg = received.find((m) => m.raw.toString().includes("Subject: compiled"));
    expect(msg!.raw.toString()).toContain("DKIM-Signature: v=1; a=rsa-sha256");
    const composed = received.find((m) => m !== msg)!.raw.toString();
    expect(composed).toContain("DKIM-Signature: v=1; a=rsa-sha256");
    expect(composed).toMatch(/^Subject: =\?UTF-8\?/im);
    // It re-executed itself with JavaScriptCore's options (cli/jsc-tuning.ts), as from source.
    expect(environOf(server.pid)).toMatchObject(JSC_OPTIONS);
  } finally {
    server.kill();
    await sink.close();
  }
}, 60_000);

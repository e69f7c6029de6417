// `domain add --zone` places a domain; naming another zone later (`domain set --zone`, or adding it
// again elsewhere) is refused with one clear line: a domain's data never moves between zones.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const MAIN = join(import.meta.dir, "../../cli/main.ts");
const dir = mkdtempSync(join(tmpdir(), "postern-zone-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// Five CLI processes on a shared 2-core machine: generous, never timing-based.
setDefaultTimeout(60_000);

function cli(...args: string[]) {
  const r = Bun.spawnSync(["bun", MAIN, ...args], { cwd: dir, env: { ...process.env, POSTERN_CONFIG: "" } });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

test("a domain is placed in a zone and never moved", () => {
  expect(cli("init").code).toBe(0);
  const added = cli("--json", "domain", "add", "eu.example.com", "--zone", "eu");
  expect(added.code).toBe(0);
  expect(JSON.parse(cli("--json", "domain", "show", "eu.example.com").out).zone).toBe("eu");
  const moved = cli("domain", "set", "eu.example.com", "--zone", "us");
  expect(moved.code).toBe(1);
  expect(moved.err).toMatch(/domain eu\.example\.com lives in zone eu; moving a domain to another zone \(us\) is not supported/);
  const again = cli("domain", "add", "eu.example.com", "--zone", "us");
  expect(again.code).toBe(1);
  expect(again.err).toMatch(/lives in zone eu; moving/);
  expect(cli("domain", "set", "eu.example.com", "--zone", "eu", "--open-tracking", "on").code).toBe(0);
});

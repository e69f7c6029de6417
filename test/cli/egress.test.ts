// `postern egress list` and `postern domain set --pool` through the real CLI on a config with two
// sources in two pools.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { egressToml } from "../helpers/egress.ts";

const MAIN = join(import.meta.dir, "../../cli/main.ts");
const dir = mkdtempSync(join(tmpdir(), "postern-egress-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
setDefaultTimeout(60_000);

writeFileSync(join(dir, "postern.toml"), `[mta]\nhostname = "mta.test"\n${egressToml()}`);

function cli(...args: string[]) {
  const r = Bun.spawnSync(["bun", MAIN, "--config", join(dir, "postern.toml"), ...args], { cwd: dir, env: { ...process.env, POSTERN_CONFIG: "" } });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

test("egress list --json: each source with its pool and warm-up; null day and cap when warm", () => {
  const r = cli("--json", "egress", "list");
  expect(r.code).toBe(0);
  expect(JSON.parse(r.out)).toEqual({ sources: [
    { name: "ip2", address: "127.0.0.2", pool: "default", warmup_day: null, hour_cap: null, hour_sent: 0, waits_until: null },
    { name: "ip3", address: "127.0.0.3", pool: "bulk", warmup_day: 1, hour_cap: 20, hour_sent: 0, waits_until: null },
  ] });
  const human = cli("egress", "list");
  expect(human.out).toMatch(/ip3\s+127\.0\.0\.3\s+bulk\s+1\s+20\s+0/);
});

test("domain set --pool takes a configured pool; an unknown one is refused with one line", () => {
  expect(cli("domain", "add", "example.com").code).toBe(0);
  const set = cli("--json", "domain", "set", "example.com", "--pool", "bulk");
  expect(set.code).toBe(0);
  expect(JSON.parse(set.out).pool).toBe("bulk");
  const bad = cli("domain", "set", "example.com", "--pool", "nope");
  expect(bad.code).toBe(1);
  expect(bad.err).toMatch(/unknown ip pool "nope"/);
  expect(JSON.parse(cli("--json", "domain", "set", "example.com", "--pool", "").out).pool).toBeNull();
});

// `postern alerts list|add|rm` through the real CLI on a data directory of its own.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const MAIN = join(import.meta.dir, "../../cli/main.ts");
const dir = mkdtempSync(join(tmpdir(), "postern-alerts-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
setDefaultTimeout(60_000);

writeFileSync(join(dir, "postern.toml"), `[mta]\nhostname = "mta.test"\n[alerts]\nemail = ["ops@example.com"]\n`);

function cli(...args: string[]) {
  const r = Bun.spawnSync(["bun", MAIN, "--config", join(dir, "postern.toml"), ...args], { cwd: dir, env: { ...process.env, POSTERN_CONFIG: "" } });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

test("alerts add, list and rm", () => {
  const added = cli("--json", "alerts", "add", "--metric", "block_rate", "--threshold", "0.2", "--window", "2h", "--min-volume", "500", "--domain", "example.com");
  expect(added.code).toBe(0);
  const rule = JSON.parse(added.out);
  expect(rule).toMatchObject({ metric: "block_rate", threshold: 0.2, window: "2h", min_volume: 500, domain: "example.com", source: "cli" });
  const list = JSON.parse(cli("--json", "alerts", "list").out);
  expect(list.rules.find((r: any) => r.id === rule.id)).toMatchObject({ metric: "block_rate", built_in: false });
  expect(list.rules.find((r: any) => r.id === "complaint_rate")).toMatchObject({ threshold: 0.003, built_in: true });
  expect(list.alerts).toEqual([]);
  const human = cli("alerts", "list");
  expect(human.out).toMatch(new RegExp(`${rule.id}\\s+block_rate\\s+0\\.2\\s+2h\\s+500\\s+example\\.com`));
  expect(human.out).toMatch(/no open alerts/);
  expect(cli("alerts", "rm", rule.id).out).toMatch(`deleted alert rule ${rule.id}`);
  const again = cli("alerts", "rm", rule.id);
  expect(again.code).toBe(1);
  expect(again.err).toMatch(/no configured alert rule/);
});

test("a bad rule is refused with one line and exit 1", () => {
  const r = cli("alerts", "add", "--metric", "hard_bounce_rate", "--threshold", "5");
  expect(r.code).toBe(1);
  expect(r.err).toBe("postern: threshold: rates are fractions (0.05 for 5 %), got 5\n");
});

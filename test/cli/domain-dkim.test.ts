// `postern domain dkim rotate|list` as real CLI processes: a rotation adds a pending pair that
// `domain dns` prints, `--now` activates at once and the old pair retires; list's --json shape.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const MAIN = join(import.meta.dir, "../../cli/main.ts");
const dir = mkdtempSync(join(tmpdir(), "postern-domain-dkim-"));

function cli(...args: string[]) {
  const r = Bun.spawnSync(["bun", MAIN, ...args], { cwd: dir, env: { ...process.env, POSTERN_CONFIG: "" } });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}
type Key = { selector: string; algorithm: string; state: string; created_at: string | null; activated_at: string | null; retire_at: string | null;
  record: { name: string; value: string } };
const list = () => (JSON.parse(cli("--json", "domain", "dkim", "list", "example.com").out) as { keys: Key[] }).keys;

beforeAll(() => {
  expect(cli("init").code).toBe(0);
  expect(cli("domain", "add", "example.com").code).toBe(0);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("rotate adds a pending pair under a dated selector; domain dns prints it; the old pair stays active", () => {
  const r = cli("domain", "dkim", "rotate", "example.com");
  expect(r.code).toBe(0);
  const day = new Date().toISOString().slice(0, 10).replaceAll("-", "");
  expect(r.out).toContain(`s${day}._domainkey.example.com TXT "v=DKIM1; k=rsa; p=`);
  const keys = list();
  expect(keys.map((k) => [k.selector, k.algorithm, k.state])).toEqual([["s1", "rsa-sha256", "active"], ["s1e", "ed25519-sha256", "active"],
    [`s${day}`, "rsa-sha256", "pending"], [`s${day}e`, "ed25519-sha256", "pending"]]);
  expect(keys[2]).toMatchObject({ activated_at: null, retire_at: null, record: { name: `s${day}._domainkey.example.com` } });
  expect(keys[2]!.record.value).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/=]{300,}$/);
  expect(Object.keys(keys[0]!).sort()).toEqual(["activated_at", "algorithm", "created_at", "record", "retire_at", "selector", "state"]);
  const dns = JSON.parse(cli("--json", "domain", "dns", "example.com").out) as { records: { purpose: string; name: string }[] };
  expect(dns.records.filter((x) => x.purpose === "dkim").map((x) => x.name.split(".")[0])).toEqual(["s1", "s1e", `s${day}`, `s${day}e`]);
}, 60_000);

test("rotate --now: the waiting pair is active at once, the old pair retiring for retire_after; the table fits 80 columns; both are audited", () => {
  expect(cli("domain", "dkim", "rotate", "example.com", "--now").code).toBe(0);
  const keys = list();
  expect(keys.map((k) => k.state)).toEqual(["retiring", "retiring", "active", "active"]);
  const retire = Date.parse(keys[0]!.retire_at!) - Date.parse(keys[2]!.activated_at!);
  expect(retire).toBe(7 * 24 * 3_600_000);
  const human = cli("domain", "dkim", "list", "example.com");
  expect(human.code).toBe(0);
  expect(Math.max(...human.out.trimEnd().split("\n").map((l) => l.length))).toBeLessThanOrEqual(80);
  expect(human.out).toContain("retiring");
  expect(cli("domain", "dkim", "list", "nope.example").code).not.toBe(0);
  const audit = JSON.parse(cli("--json", "audit").out) as { items: { action: string; target: string }[] };
  expect(audit.items.filter((e) => e.action.startsWith("domain.dkim")).map((e) => [e.action, e.target])).toEqual([
    ["domain.dkim_rotate_now", "example.com"], ["domain.dkim_rotate", "example.com"]]);
}, 60_000);

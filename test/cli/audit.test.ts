// `postern audit` through the real CLI: changes made by commands are recorded with the operator
// as a `cli` actor and read back, as JSON and as a table, with the filters of GET /audit.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const MAIN = join(import.meta.dir, "../../cli/main.ts");
const dir = mkdtempSync(join(tmpdir(), "postern-audit-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
setDefaultTimeout(60_000);

writeFileSync(join(dir, "postern.toml"), `[mta]\nhostname = "mta.test"\n`);

function cli(...args: string[]) {
  const r = Bun.spawnSync(["bun", MAIN, "--config", join(dir, "postern.toml"), ...args], { cwd: dir,
    env: { ...process.env, POSTERN_CONFIG: "", SUDO_USER: "alice" } });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

test("commands' changes are recorded as the cli operator's and read back newest first", () => {
  expect(cli("domain", "add", "example.com").code).toBe(0);
  const key = JSON.parse(cli("--json", "key", "create", "--domain", "example.com").out) as { id: string };
  expect(cli("credential", "add", "example.com", "app", "--password", "a-long-password-1").code).toBe(0);
  const r = cli("--json", "audit");
  expect(r.code).toBe(0);
  const page = JSON.parse(r.out) as { items: { actor: unknown; action: string; target: string; tenant: number }[]; next_cursor: string | null };
  const mine = page.items.filter((e) => e.action !== "key.create" || e.target === key.id);
  expect(mine.map((e) => [e.action, e.target])).toEqual([["credential.set", "app@example.com"], ["key.create", key.id], ["domain.add", "example.com"]]);
  expect(mine.every((e) => JSON.stringify(e.actor) === JSON.stringify({ kind: "cli", id: "alice" }) && e.tenant === 0)).toBe(true);
  expect(JSON.parse(cli("--json", "audit", "--action", "domain", "--actor", "alice").out).items.length).toBe(1);
  const human = cli("audit", "--action", "credential.set");
  expect(human.out).toMatch(/cli:alice\s+credential\.set\s+app@example\.com/);
  expect(cli("audit", "--from", "soon").code).toBe(1);
});

test("a command changing a tenant's domain is recorded under that tenant, so its own audit log shows it", () => {
  expect(cli("tenant", "add", "acme").code).toBe(0);
  expect(cli("domain", "add", "acme.test", "--tenant", "acme").code).toBe(0);
  expect(cli("credential", "add", "acme.test", "app", "--password", "a-long-password-1").code).toBe(0);
  expect(cli("domain", "dkim", "rotate", "acme.test").code).toBe(0);
  expect(cli("credential", "delete", "acme.test", "app").code).toBe(0);
  const items = (JSON.parse(cli("--json", "audit", "--limit", "4").out) as { items: { action: string; tenant: number }[] }).items;
  expect(items.map((e) => [e.action, e.tenant])).toEqual([["credential.delete", 1], ["domain.dkim_rotate", 1], ["credential.set", 1], ["domain.add", 1]]);
});

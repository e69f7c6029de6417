// `postern key create --tenant` through the real CLI: a tenant's account key and domain key (a
// --domain key belongs to its domain's tenant), an unknown tenant refused and nothing made, a key
// of tenant A for tenant B's domain refused; the key then acts over HTTP for its tenant only, and
// what it does is in that tenant's audit log (read with the key itself through GET /audit).
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { createApp } from "../../src/app.ts";
import { createLogger } from "../../src/log.ts";
import { writeConfig } from "../helpers/app.ts";

const MAIN = join(import.meta.dir, "../../cli/main.ts");
const dir = mkdtempSync(join(tmpdir(), "postern-key-cli-"));
const file = writeConfig(dir);
afterAll(() => rmSync(dir, { recursive: true, force: true }));
setDefaultTimeout(60_000);

function cli(...args: string[]) {
  const r = Bun.spawnSync(["bun", MAIN, "--config", file, ...args], { cwd: dir, stdin: "ignore", env: { ...process.env, POSTERN_CONFIG: "", SUDO_USER: "ops" } });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

test("key create --tenant makes the tenant's own key; its actions are audited under the tenant", async () => {
  expect(cli("tenant", "add", "acme").code).toBe(0);
  expect(cli("tenant", "add", "beta").code).toBe(0);
  expect(cli("domain", "add", "acme.test", "--tenant", "acme").code).toBe(0);
  expect(cli("domain", "add", "main.test").code).toBe(0);
  expect(cli("key", "create", "--help").out).toMatch(/--tenant <tenant>/);

  const made = JSON.parse(cli("--json", "key", "create", "--account", "--tenant", "acme", "--label", "acme ci").out);
  expect(made).toMatchObject({ kind: "account", label: "acme ci", tenant: 1 });
  expect(JSON.parse(cli("--json", "key", "create", "--domain", "acme.test", "--tenant", "1").out)).toMatchObject({ kind: "domain", domain: "acme.test", tenant: 1 });
  expect(JSON.parse(cli("--json", "key", "create", "--domain", "acme.test").out)).toMatchObject({ tenant: 1 });
  expect(cli("key", "create", "--account").out).toMatch(/account key of tenant 0/);
  const unknown = cli("key", "create", "--account", "--tenant", "9");
  expect([unknown.code, unknown.err]).toEqual([1, expect.stringMatching(/tenant 9 not found/)]);
  expect(cli("key", "create", "--domain", "acme.test", "--tenant", "beta").err).toMatch(/domain acme\.test not found/);
  expect(cli("key", "create", "--domain", "main.test", "--tenant", "acme").code).toBe(1);

  const app = await createApp(loadConfig({ file, env: {} }), { log: createLogger({ level: "silent" }) });
  try {
    expect((await app.access.listKeys(undefined, 1)).map((k) => k.kind).sort()).toEqual(["account", "domain", "domain"]);
    expect((await app.access.listKeys(undefined, 2)).length).toBe(0);
    const { http } = await app.start();
    const call = (path: string, init: RequestInit = {}) => fetch(`http://${http}${path}`, { ...init, headers: { "ov-token": made.key, "content-type": "application/json" } });
    expect((await (await call("/domains")).json() as { name: string }[]).map((d) => d.name)).toEqual(["acme.test"]);
    const child = await (await call("/keys", { method: "POST", body: JSON.stringify({ label: "made by acme ci" }) })).json() as { id: string; tenant: number };
    expect(child).toMatchObject({ tenant: 1 });

    const audit = await (await call("/audit?action=key")).json() as { items: { action: string; target: string; tenant: number; actor: { kind: string; id: string } }[] };
    expect(audit.items.every((e) => e.tenant === 1)).toBe(true);
    // The key's own action first, then the CLI's three keys of tenant 1, all under tenant 1 and nothing else.
    expect(audit.items[0]).toMatchObject({ action: "key.create", target: child.id, actor: { kind: "key", id: made.id } });
    const byCli = (await app.access.listKeys(undefined, 1)).filter((k) => k.id !== child.id).map((k) => `cli key.create ${k.id}`);
    expect(new Set(audit.items.slice(1).map((e) => `${e.actor.kind} ${e.action} ${e.target}`))).toEqual(new Set(byCli));
    expect(audit.items.length).toBe(4);
  } finally { await app.stop(); }
});

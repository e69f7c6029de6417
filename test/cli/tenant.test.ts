// `postern tenant …` and `postern domain add --tenant` through the real CLI: add, list as JSON in
// the contract's shape, rename, suspend, a bad status and an unknown tenant refused; the domain
// belongs to the tenant; each change is in the audit log with its tenant.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { createApp } from "../../src/app.ts";
import { createLogger } from "../../src/log.ts";

const MAIN = join(import.meta.dir, "../../cli/main.ts");
const dir = mkdtempSync(join(tmpdir(), "postern-tenant-cli-"));
const file = join(dir, "postern.toml");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
setDefaultTimeout(60_000);
writeFileSync(file, `[mta]\nhostname = "mta.test"\n`);

function cli(args: string[]) {
  const r = Bun.spawnSync(["bun", MAIN, "--config", file, ...args], { cwd: dir, stdin: "ignore", env: { ...process.env, POSTERN_CONFIG: "", SUDO_USER: "ops" } });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

test("add, list, set, suspend; domain add --tenant; refusals; the audit log names the tenant", async () => {
  expect(JSON.parse(cli(["--json", "tenant", "add", "acme"]).out)).toMatchObject({ id: 1, name: "acme", status: "active" });
  expect(cli(["tenant", "add", "beta"]).out).toMatch(/added tenant 2 \(beta\)/);
  expect(cli(["tenant", "add", "acme"]).err).toMatch(/already exists/);
  expect(cli(["tenant", "add", "123"]).code).toBe(1);
  expect(cli(["tenant", "set", "beta", "--name", "gamma"]).code).toBe(0);
  expect(cli(["tenant", "suspend", "gamma"]).out).toMatch(/tenant 2 \(gamma\) suspended/);
  const bad = cli(["tenant", "set", "1", "--status", "paused"]);
  expect(bad.code).toBe(1);
  expect(bad.err).toMatch(/status must be one of active, suspended, terminated/);
  expect(cli(["tenant", "suspend", "0"]).err).toMatch(/primary account/);
  expect(cli(["tenant", "suspend", "nobody"]).err).toMatch(/not found/);
  expect(JSON.parse(cli(["--json", "tenant", "list"]).out)).toEqual({ tenants: [
    { id: 0, name: "primary", status: "active" }, { id: 1, name: "acme", status: "active" }, { id: 2, name: "gamma", status: "suspended" },
  ] });
  expect(cli(["tenant", "list"]).out).toMatch(/2\s+gamma\s+suspended/);

  expect(cli(["domain", "add", "acme.test", "--tenant", "acme"]).code).toBe(0);
  expect(cli(["domain", "add", "main.test"]).code).toBe(0);
  expect(cli(["domain", "add", "x.test", "--tenant", "9"]).err).toMatch(/tenant 9 not found/);

  const app = await createApp(loadConfig({ file, env: {} }), { log: createLogger({ level: "silent" }) });
  try {
    expect((await app.store.control.listDomains(1)).map((d) => d.name)).toEqual(["acme.test"]);
    expect((await app.store.control.listDomains(0)).map((d) => d.name)).toEqual(["main.test"]);
    const audit = await app.audit.list({ limit: 20 });
    const of = (action: string) => audit.items.filter((e) => e.action === action).map((e) => [e.target, e.tenant, e.actor.kind]);
    expect(of("tenant.add")).toEqual([["beta", 2, "cli"], ["acme", 1, "cli"]]);
    expect(of("tenant.suspend")).toEqual([["gamma", 2, "cli"]]);
    expect(of("domain.add")).toEqual([["main.test", 0, "cli"], ["acme.test", 1, "cli"]]);
  } finally { await app.stop(); }
});

test("set --monthly-limit and --pool: shown, cleared with none; a pool must be configured and a limit a whole number; audited", async () => {
  const pooled = join(dir, "pooled.toml");
  writeFileSync(pooled, `[storage]\ndata_dir = "${join(dir, "pooled")}"\n[mta]\nhostname = "mta.test"\n`
    + `[mta.egress.ip2]\nsource_address = "127.0.0.2"\n[mta.pools.bulk]\nsources = ["ip2"]\n`);
  const run = (args: string[]) => {
    const r = Bun.spawnSync(["bun", MAIN, "--config", pooled, ...args], { cwd: dir, stdin: "ignore", env: { ...process.env, POSTERN_CONFIG: "", SUDO_USER: "ops" } });
    return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
  };
  expect(run(["tenant", "add", "acme"]).code).toBe(0);
  expect(JSON.parse(run(["--json", "tenant", "set", "acme", "--monthly-limit", "500", "--pool", "bulk"]).out))
    .toMatchObject({ id: 1, name: "acme", monthly_limit: 500, pool: "bulk" });
  expect(run(["tenant", "set", "acme", "--monthly-limit", "20"]).out).toMatch(/tenant 1 \(acme\): active, 20 messages a month, pool bulk/);
  const noPool = run(["tenant", "set", "acme", "--pool", "warm"]);
  expect([noPool.code, noPool.err]).toEqual([1, expect.stringMatching(/unknown ip pool "warm"/)]);
  const badLimit = run(["tenant", "set", "acme", "--monthly-limit", "-3"]);
  expect([badLimit.code, badLimit.err]).toEqual([1, expect.stringMatching(/whole number/)]);
  const cleared = JSON.parse(run(["--json", "tenant", "set", "acme", "--monthly-limit", "none", "--pool", "none"]).out);
  expect(cleared).toEqual({ id: 1, name: "acme", status: "active", created_at: expect.any(String) });
  // The list keeps the contract's shape.
  expect(JSON.parse(run(["--json", "tenant", "list"]).out).tenants[1]).toEqual({ id: 1, name: "acme", status: "active" });

  const app = await createApp(loadConfig({ file: pooled, env: {} }), { log: createLogger({ level: "silent" }) });
  try {
    const audit = await app.audit.list({ limit: 20 });
    const of = (action: string) => audit.items.filter((e) => e.action === action).map((e) => [e.target, e.tenant]).reverse();
    expect(of("tenant.limit")).toEqual([["acme 500", 1], ["acme 20", 1], ["acme", 1]]);
    expect(of("tenant.pool")).toEqual([["acme bulk", 1], ["acme", 1]]);
  } finally { await app.stop(); }
});

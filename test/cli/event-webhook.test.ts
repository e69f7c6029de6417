// `postern event-webhook show|set` through the real CLI against a data dir, and what the SendGrid
// settings API then reads back with the domain's key.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { createApp } from "../../src/app.ts";
import { createLogger } from "../../src/log.ts";

setDefaultTimeout(60_000);
const MAIN = join(import.meta.dir, "../../cli/main.ts");
const dir = mkdtempSync(join(tmpdir(), "postern-ew-"));

function cli(...args: string[]) {
  const r = Bun.spawnSync(["bun", MAIN, ...args], { cwd: dir, env: { ...process.env, POSTERN_CONFIG: "" } });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

beforeAll(() => {
  expect(cli("init").code).toBe(0);
  expect(cli("domain", "add", "example.com").code).toBe(0);
}, 30_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("postern event-webhook", () => {
  test("set then show, and the SendGrid settings API reads the same", async () => {
    const set = cli("--json", "event-webhook", "set", "--domain", "example.com", "--url", "https://hooks.example.net/sg", "--enable", "--events", "delivered,bounce");
    expect(set.code).toBe(0);
    const shown = JSON.parse(cli("--json", "event-webhook", "show", "--domain", "example.com").out);
    expect(shown).toMatchObject({ enabled: true, url: "https://hooks.example.net/sg", events: ["delivered", "bounce"] });
    expect(shown.public_key).toMatch(/^MF[A-Za-z0-9+/=]+$/);

    const app = await createApp(loadConfig({ file: join(dir, "postern.toml"), env: {} }), { log: createLogger({ level: "silent" }) });
    try {
      const { key } = await app.access.createKey({ kind: "domain", domain: "example.com" });
      const res = await app.http(new Request("http://127.0.0.1/v3/user/webhooks/event/settings", { headers: { authorization: `Bearer ${key}` } }));
      expect(await res.json()).toMatchObject({ enabled: true, url: "https://hooks.example.net/sg", delivered: true, bounce: true, processed: false });
    } finally { await app.stop(); }
  });

  test("--tenant sets that tenant's account-wide webhook, which on-behalf-of reads and the primary does not", async () => {
    expect(cli("tenant", "add", "acme").code).toBe(0);
    expect(cli("event-webhook", "set", "--tenant", "acme", "--url", "https://hooks.example.net/acme", "--enable", "--events", "open").code).toBe(0);
    expect(JSON.parse(cli("--json", "event-webhook", "show", "--tenant", "acme").out)).toMatchObject({ enabled: true, url: "https://hooks.example.net/acme", events: ["open"] });
    expect(JSON.parse(cli("--json", "event-webhook", "show").out)).toMatchObject({ url: "" });
    expect(cli("event-webhook", "show", "--tenant", "nobody").code).not.toBe(0);
    expect(cli("event-webhook", "show", "--tenant", "acme", "--domain", "example.com").code).toBe(2);
    const app = await createApp(loadConfig({ file: join(dir, "postern.toml"), env: {} }), { log: createLogger({ level: "silent" }) });
    try {
      const { key } = await app.access.createKey({ kind: "account" });
      const read = async (headers: Record<string, string>) => (await app.http(new Request("http://127.0.0.1/v3/user/webhooks/event/settings",
        { headers: { authorization: `Bearer ${key}`, ...headers } }))).json();
      expect(await read({ "on-behalf-of": "acme" })).toMatchObject({ url: "https://hooks.example.net/acme", open: true });
      expect(await read({})).toMatchObject({ url: "", open: false });
    } finally { await app.stop(); }
  });

  test("changes to a tenant's webhooks are in that tenant's audit log, though the CLI acts for no tenant", async () => {
    expect(cli("tenant", "add", "owned").code).toBe(0);
    expect(cli("domain", "add", "owned.test", "--tenant", "owned").code).toBe(0);
    for (const where of [["--tenant", "owned"], ["--domain", "owned.test"]]) {
      expect(cli("event-webhook", "set", ...where, "--url", "https://hooks.example.net/owned", "--enable", "--events", "open").code).toBe(0);
      expect(cli("event-webhook", "set", ...where, "--events", "open,click").code).toBe(0);
      expect(cli("event-webhook", "set", ...where, "--disable", "--url", "").code).toBe(0);
    }
    const app = await createApp(loadConfig({ file: join(dir, "postern.toml"), env: {} }), { log: createLogger({ level: "silent" }) });
    try {
      const tenant = (await app.tenants.require("owned")).id;
      const entries = async (t: number) => (await app.audit.list({ action: "webhook" }, t)).items.reverse();
      const owned = await entries(tenant);
      expect(owned.map((e) => e.action)).toEqual(["webhook.create", "webhook.update", "webhook.delete", "webhook.create", "webhook.update", "webhook.delete"]);
      // None of them in the primary's log.
      const targets = new Set(owned.map((e) => e.target));
      expect((await entries(0)).filter((e) => targets.has(e.target))).toEqual([]);
    } finally { await app.stop(); }
  });

  test("usage errors exit 2 with one line", () => {
    const r = cli("event-webhook", "set", "--events", "nope");
    expect(r.code).toBe(2);
    expect(r.err.trim().split("\n")).toHaveLength(1);
  });
});

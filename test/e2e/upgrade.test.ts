// Upgrades: each data directory under test/fixtures/releases/<commit>/ was written by that release
// (scripts/release-fixture.ts). Today's code opens a copy, migrates it, and the release's data
// works: its keys authenticate, its domain, suppressions, webhooks and events are there, a new send
// through the old domain key and one through the old SMTP credential are delivered, and `status`
// shows the schema version the copy now has.
import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SMTPConnection from "nodemailer/lib/smtp-connection/index.js";
import { loadConfig } from "../../src/config/load.ts";
import { createApp } from "../../src/app.ts";
import { createLogger } from "../../src/log.ts";
import { writeConfig } from "../helpers/app.ts";
import { startSink } from "../helpers/smtp-sink.ts";
import { CONTROL_MIGRATIONS, ZONE_MIGRATIONS } from "../../src/store/sqlite/migrations.ts";
import { CONTROL_MIGRATIONS as PG_CONTROL_MIGRATIONS, ZONE_MIGRATIONS as PG_ZONE_MIGRATIONS } from "../../src/store/postgres/migrations.ts";
import { findPgBin, pgSkipReason, sharedPostgres, type PgCluster } from "../helpers/postgres.ts";

const RELEASES = join(import.meta.dir, "../fixtures/releases");
const root = mkdtempSync(join(tmpdir(), "postern-upgrade-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Fixture {
  commit: string; domain: string; account_key: string; domain_key: string; smtp: { user: string; password: string };
  postgres?: { dump: string; account_key: string; domain_key: string };
  suppressions: { address: string; type: string }[]; webhook: { id: string }; delivered: string[]; files: string[];
}

function smtpSubmit(port: number, user: string, pass: string, to: string): Promise<number | undefined> {
  const conn = new SMTPConnection({ host: "127.0.0.1", port, ignoreTLS: true });
  return new Promise((resolve) => {
    conn.on("error", (e: Error & { responseCode?: number }) => resolve(e.responseCode));
    conn.connect(() => conn.login({ user, pass }, (err) => {
      if (err) return resolve((err as { responseCode?: number }).responseCode ?? -1);
      conn.send({ from: "app@example.com", to: [to] }, `From: app@example.com\r\nTo: ${to}\r\nSubject: upgrade smtp\r\n\r\nhi\r\n`, (e) => {
        conn.quit();
        resolve(e ? (e as { responseCode?: number }).responseCode : 250);
      });
    }));
  });
}

const SCHEMA = { control: CONTROL_MIGRATIONS.length, zones: { us: ZONE_MIGRATIONS.length, eu: ZONE_MIGRATIONS.length } };
const PG_SCHEMA = { control: PG_CONTROL_MIGRATIONS.length, zones: { us: PG_ZONE_MIGRATIONS.length, eu: PG_ZONE_MIGRATIONS.length } };
let pg: PgCluster | null = null;
afterAll(async () => { await pg?.stop(); }, 60_000);

/** Today's code on a release's data (`storage`: the [storage] section), with that release's keys. */
async function upgradeWorks(fx: Fixture, dir: string, storage: string, keys: { account_key: string; domain_key: string }, schema: typeof SCHEMA) {
  const sink = await startSink();
  const file = writeConfig(dir, `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n[storage]\n${storage}\n`);
  const app = await createApp(loadConfig({ file, env: {} }), { log: createLogger({ level: "silent" }) });
  try {
    expect(app.newAccountKey).toBeNull(); // the release's account, not a new one
    expect(await app.store.schemaVersion()).toEqual(schema);
    expect((await app.access.authenticate(keys.account_key))?.kind).toBe("account");
    expect((await app.access.authenticate(keys.domain_key))?.domain?.name).toBe(fx.domain);
    expect((await app.domains.get(fx.domain))?.state).toBe("active");
    const where = await app.start();
    const url = `http://${where.http}`;
    const basic = (key: string) => ({ authorization: `Basic ${btoa(`api:${key}`)}` });
    for (const s of fx.suppressions) {
      const r = await fetch(`${url}/v3/${fx.domain}/${s.type}/${encodeURIComponent(s.address)}`, { headers: basic(keys.account_key) });
      expect([s.address, r.status]).toEqual([s.address, 200]);
    }
    const hooks = await (await fetch(`${url}/v3/domains/${fx.domain}/webhooks`, { headers: basic(keys.account_key) })).json() as { webhooks: Record<string, { urls: string[] }> };
    expect(hooks.webhooks[fx.webhook.id]?.urls.length).toBe(1);
    const events = await (await fetch(`${url}/v3/${fx.domain}/events?event=delivered&limit=300`, { headers: basic(keys.account_key) })).json() as { items: { recipient: string }[] };
    expect(new Set(events.items.map((e) => e.recipient))).toEqual(new Set(fx.delivered));
    const send = (to: string) => fetch(`${url}/v3/mail/send`, { method: "POST", headers: { authorization: `Bearer ${keys.domain_key}`, "content-type": "application/json" },
      body: JSON.stringify({ personalizations: [{ to: [{ email: to }] }], from: { email: "app@example.com" }, subject: "after", content: [{ type: "text/plain", value: "x" }] }) });
    expect((await send("after-upgrade@dest.test")).status).toBe(202);
    expect(await smtpSubmit(Number(where.smtp!.split(":").pop()), fx.smtp.user, fx.smtp.password, "smtp-after-upgrade@dest.test")).toBe(250);
    // The old suppression still holds: accepted, dropped, never sent.
    expect((await send(fx.suppressions[0]!.address)).status).toBe(202);
    await sink.waitFor(2, 20_000);
    await Bun.sleep(300);
    expect(new Set(sink.messages.flatMap((m) => m.to))).toEqual(new Set(["after-upgrade@dest.test", "smtp-after-upgrade@dest.test"]));
  } finally {
    await app.stop();
    await sink.close();
  }
  // `status` shows the schema version (no server answers now: exit 1, but the body says it).
  const status = Bun.spawnSync(["bun", join(import.meta.dir, "../../cli/main.ts"), "--config", file, "--json", "status"]);
  expect(JSON.parse(status.stdout.toString()).schema_version).toEqual(schema);
}

for (const commit of readdirSync(RELEASES)) {
  const fx = JSON.parse(readFileSync(join(RELEASES, commit, "fixture.json"), "utf8")) as Fixture;
  describe(`data written by release ${commit}`, () => {
    test("SQLite: opens with today's code; keys, domain, suppressions, webhooks and events intact; new mail delivered", async () => {
      const dir = join(root, commit);
      mkdirSync(join(dir, "postern-data"), { recursive: true });
      for (const f of fx.files) copyFileSync(join(RELEASES, commit, f), join(dir, "postern-data", f));
      await upgradeWorks(fx, dir, 'data_dir = "./postern-data"', fx, SCHEMA);
    }, 60_000);

    test.skipIf(!fx.postgres || Boolean(pgSkipReason))("PostgreSQL: the release's database (pg_dump) opens and works the same", async () => {
      pg ??= await sharedPostgres();
      const url = await pg.createDatabase(`release_${commit}`);
      const load = Bun.spawnSync([join(findPgBin()!, "psql"), "-q", "-v", "ON_ERROR_STOP=1", "-f", join(RELEASES, commit, fx.postgres!.dump), url], { stderr: "pipe" });
      expect(load.stderr.toString()).toBe("");
      expect(load.exitCode).toBe(0);
      const dir = join(root, `${commit}-pg`);
      mkdirSync(dir, { recursive: true });
      await upgradeWorks(fx, dir, `engine = "postgres"\npostgres_url = "${url}"`, fx.postgres!, PG_SCHEMA);
    }, 90_000);
  });
}

// postern backup while a real server sends, then restore into a new data directory: the copy holds
// every message acknowledged before the backup started, its messages and events agree, and a server
// on it works (sends, delivers the mail left queued). restore beside a running server, over data
// without --force, and on PostgreSQL exit 1.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { loadConfig } from "../../src/config/load.ts";
import { createApp } from "../../src/app.ts";
import { createLogger } from "../../src/log.ts";
import { writeConfig } from "../helpers/app.ts";
import { startSink } from "../helpers/smtp-sink.ts";
import { CONTROL_MIGRATIONS, ZONE_MIGRATIONS } from "../../src/store/sqlite/migrations.ts";
import { spawnServe as serve } from "../helpers/proc.ts";

const MAIN = join(import.meta.dir, "../../cli/main.ts");
const root = mkdtempSync(join(tmpdir(), "postern-backup-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const cli = (file: string, ...args: string[]) => {
  const r = Bun.spawnSync(["bun", MAIN, "--config", file, ...args], { stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
};

const send = (url: string, key: string, to: string) => fetch(`${url}/v3/mail/send`, {
  method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
  body: JSON.stringify({ personalizations: [{ to: [{ email: to }] }], from: { email: "a@example.com" }, subject: "backup", content: [{ type: "text/plain", value: "x" }] }),
});

test("a backup taken while sending restores into a working server with consistent messages and events", async () => {
  const sink = await startSink({ delayMs: 5 });
  const dirA = join(root, "a");
  mkdirSync(dirA);
  const fileA = writeConfig(dirA, `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n`);
  const setup = await createApp(loadConfig({ file: fileA, env: {} }), { log: createLogger({ level: "silent" }) });
  await setup.domains.add("example.com");
  await setup.domains.verify("example.com", true);
  const key = (await setup.access.createKey({ kind: "domain", domain: "example.com" })).key;
  await setup.stop();

  const server = await serve(fileA);
  const acked: string[] = [];
  let sending = true;
  const loops = Promise.all([0, 1, 2, 3].map(async (w) => {
    for (let i = 0; sending; i++) {
      const to = `w${w}n${i}@dest.test`;
      if ((await send(server.url, key, to)).status === 202) acked.push(to);
    }
  }));
  while (acked.length < 200) await Bun.sleep(20);
  const before = [...acked];
  const copy = join(root, "copy");
  const backup = cli(fileA, "--json", "backup", copy);
  expect(backup.err).toBe("");
  expect(backup.code).toBe(0);
  const manifest = JSON.parse(backup.out);
  expect(manifest).toMatchObject({ engine: "sqlite", schema_version: { control: CONTROL_MIGRATIONS.length, zones: { us: ZONE_MIGRATIONS.length } } });
  expect(manifest.files.map((f: { name: string }) => f.name).sort()).toEqual(["control.sqlite", "eu.sqlite", "us.sqlite"]);
  expect(JSON.parse(readFileSync(join(copy, "manifest.json"), "utf8"))).toEqual(manifest);
  sending = false;
  await loops;

  // Beside the running server, restore is refused (its lock on the data directory).
  const beside = cli(fileA, "restore", copy, "--force");
  expect(beside.code).toBe(1);
  expect(beside.err).toContain("another postern server is running");
  server.proc.kill("SIGTERM");
  expect(await server.proc.exited).toBe(0);

  // Into a new, absent data directory.
  const dirB = join(root, "b");
  mkdirSync(dirB);
  const fileB = writeConfig(dirB, `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n`);
  expect(existsSync(join(dirB, "postern-data"))).toBe(false);
  const restored = cli(fileB, "restore", copy);
  expect(restored.err).toBe("");
  expect(restored.code).toBe(0);
  expect(cli(fileB, "restore", copy).code).toBe(1); // data there now: --force replaces it
  expect(cli(fileB, "restore", copy, "--force").code).toBe(0);

  // Every message acknowledged before the backup began is in the copy, and its events agree with its recipients.
  const db = new Database(join(dirB, "postern-data", "us.sqlite"), { readonly: true });
  const emails = new Set((db.query("SELECT email FROM recipients").all() as { email: string }[]).map((r) => r.email));
  expect(before.filter((t) => !emails.has(t))).toEqual([]);
  expect(db.query("SELECT count(*) AS n FROM recipients r LEFT JOIN messages m ON m.id = r.message_id WHERE m.id IS NULL").get()).toEqual({ n: 0 });
  expect(db.query("SELECT count(*) AS n FROM events e LEFT JOIN messages m ON m.id = e.message_id WHERE m.id IS NULL").get()).toEqual({ n: 0 });
  expect(db.query(`SELECT count(*) AS n FROM recipients r WHERE r.status = 'delivered'
    AND NOT EXISTS (SELECT 1 FROM events e WHERE e.message_id = r.message_id AND e.recipient = r.email AND e.type = 'delivered')`).get()).toEqual({ n: 0 });
  const waiting = (db.query("SELECT email FROM recipients WHERE status IN ('queued', 'deferred')").all() as { email: string }[]).map((r) => r.email);
  db.close();

  // A server on the restored data takes the old key, sends, and delivers what was still queued.
  const restoredServer = await serve(fileB);
  expect((await send(restoredServer.url, key, "after-restore@dest.test")).status).toBe(202);
  const got = () => new Set(sink.messages.flatMap((m) => m.to));
  const deadline = Date.now() + 30_000;
  while ([...waiting, "after-restore@dest.test"].some((t) => !got().has(t)) && Date.now() < deadline) await Bun.sleep(100);
  expect([...waiting, "after-restore@dest.test"].filter((t) => !got().has(t))).toEqual([]);
  restoredServer.proc.kill("SIGTERM");
  expect(await restoredServer.proc.exited).toBe(0);
  await sink.close();
}, 120_000);

test("on PostgreSQL backup and restore name pg_dump / pg_restore and exit 1", () => {
  const dir = join(root, "pg");
  mkdirSync(dir);
  const file = writeConfig(dir, '[storage]\nengine = "postgres"\npostgres_url = "postgres://nobody@127.0.0.1:1/none"\n');
  const b = cli(file, "backup", join(dir, "copy"));
  expect(b.code).toBe(1);
  expect(b.err).toContain("pg_dump");
  const r = cli(file, "restore", join(dir, "copy"));
  expect(r.code).toBe(1);
  expect(r.err).toContain("pg_restore");
});

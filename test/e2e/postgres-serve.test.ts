// `postern serve` on the PostgreSQL engine, through the real CLI: the same config file drives the
// management commands and the server; a message accepted over HTTP is delivered to a local SMTP
// sink and its events read back over the API; no SQLite file is written under data_dir.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import { writeConfig } from "../helpers/app.ts";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";
import { pgSkipReason, sharedPostgres, type PgCluster } from "../helpers/postgres.ts";

const MAIN = join(import.meta.dir, "../../cli/main.ts");
const dir = mkdtempSync(join(tmpdir(), "postern-pg-e2e-"));
let pg: PgCluster | null = null;
let sink: Sink;
let file = "";
let url = "";
let server: ReturnType<typeof Bun.spawn> | null = null;

const cli = (...args: string[]) => {
  const r = Bun.spawnSync(["bun", MAIN, "--config", file, ...args], { cwd: dir, timeout: 20_000 });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
};

beforeAll(async () => {
  if (pgSkipReason) return;
  pg = await sharedPostgres();
  url = await pg.createDatabase("e2e");
  sink = await startSink();
  file = writeConfig(dir, `[storage]\nengine = "postgres"\npostgres_url = "${url}"\n[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n`, `node_id = "e2e-1"\n`);
}, 120_000);
afterAll(async () => {
  server?.kill("SIGTERM");
  await server?.exited;
  await sink?.close();
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe.skipIf(pgSkipReason !== null)("postern serve with engine = postgres", () => {
  test("the CLI and the server share one config: accept over HTTP, deliver to the sink, read the events back", async () => {
    expect(cli("domain", "add", "example.com").code).toBe(0);
    expect(cli("domain", "verify", "example.com", "--force").code).toBe(0);
    const key = JSON.parse(cli("key", "create", "--domain", "example.com", "--json").out).key as string;
    const accountKey = JSON.parse(cli("key", "create", "--account", "--json").out).key as string;
    server = Bun.spawn(["bun", MAIN, "--config", file, "serve"], { cwd: dir, stdout: "pipe", stderr: "pipe" });
    const reader = (server.stdout as ReadableStream<Uint8Array>).getReader();
    let text = "";
    while (!/http (\S+?),/.test(text)) {
      const chunk = await reader.read();
      if (chunk.done) throw new Error(`serve exited: ${text}${await new Response(server.stderr as ReadableStream).text()}`);
      text += new TextDecoder().decode(chunk.value);
    }
    const base = `http://${/http (\S+?),/.exec(text)![1]}`;
    const sent = await fetch(`${base}/v3/mail/send`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ personalizations: [{ to: [{ email: "rcpt@dest.test" }] }], from: { email: "a@example.com" }, subject: "over pg",
        content: [{ type: "text/plain", value: "hello" }] }) });
    expect(sent.status).toBe(202);
    const [got] = await sink.waitFor(1, 30_000);
    expect(got!.to).toEqual(["rcpt@dest.test"]);
    expect(got!.raw.toString()).toContain("Subject: over pg");
    // The events, over the Mailgun surface, from the zone's schema.
    const auth = { authorization: `Basic ${btoa(`api:${accountKey}`)}` };
    let types: string[] = [];
    for (let i = 0; i < 100 && !types.includes("delivered"); i++) {
      const res = await fetch(`${base}/v3/example.com/events?ascending=yes`, { headers: auth });
      const body = (await res.json()) as { items?: { event: string }[] };
      if (!body.items) throw new Error(`events: ${res.status} ${JSON.stringify(body)}`);
      types = body.items.map((e) => e.event);
      if (!types.includes("delivered")) await Bun.sleep(100);
    }
    expect(types).toEqual(["accepted", "delivered"]);
    // A management command while the server runs, on the same database.
    const list = JSON.parse(cli("domain", "list", "--json").out) as { name: string }[];
    expect(list.map((d) => d.name)).toEqual(["example.com"]);
    // The rows are in PostgreSQL (control and zone schemas), none in SQLite files.
    const sql = new SQL(url);
    expect((await sql`SELECT name FROM control.domains`).map((r: { name: string }) => r.name)).toEqual(["example.com"]);
    expect((await sql`SELECT status FROM zone_us.recipients`).map((r: { status: string }) => r.status)).toEqual(["delivered"]);
    await sql.close();
    expect(existsSync(join(dir, "postern-data", "control.sqlite"))).toBe(false);
  }, 90_000);

  test("a second server with the same node_id is refused; the first keeps serving", () => {
    const twin = cli("serve");
    expect(twin.code).toBe(1);
    expect(twin.err).toContain('another postern node with node_id "e2e-1"');
  }, 30_000);
});

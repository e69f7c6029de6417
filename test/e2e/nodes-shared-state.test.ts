// State shared by two nodes of zone us on one PostgreSQL database, as issue #21 asks ("the webhook
// outbox, tracking state, scheduled sends and key revocation work across nodes"): two real
// `postern serve` processes, checked only through SendGrid's HTTP surface. A key revoked
// elsewhere is refused at the next request; a scheduled send cancelled at the other node is never
// delivered by either, one paused at one node and resumed at the other is delivered exactly once;
// the event webhook posts every event of mail sent through both nodes once.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { createApp } from "../../src/app.ts";
import { createLogger } from "../../src/log.ts";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";
import { startReceiver } from "../helpers/receiver.ts";
import { freePort } from "../helpers/free-port.ts";
import { pgSkipReason, sharedPostgres, type PgCluster } from "../helpers/postgres.ts";

const MAIN = join(import.meta.dir, "../../cli/main.ts");
const dir = mkdtempSync(join(tmpdir(), "postern-shared-state-"));
const pg: PgCluster | null = pgSkipReason ? null : await sharedPostgres();

interface Node { id: string; file: string; base: string; proc: ReturnType<typeof Bun.spawn> | null }
type App = Awaited<ReturnType<typeof createApp>>;

async function node(id: string, url: string, sinkPort: number): Promise<Node> {
  const port = await freePort();
  const file = join(dir, `${id}.toml`);
  writeFileSync(file, `[server]\nlisten = "127.0.0.1:${port}"\nzone = "us"\nnode_id = "${id}"\nclaim_lease = "2s"\n` +
    `[storage]\nengine = "postgres"\npostgres_url = "${url}"\ndata_dir = "${join(dir, id)}"\n` +
    `[smtp]\nlisten = "127.0.0.1:0"\n[webhooks]\nallow_private = true\nretry = ["1s"]\n` +
    `[mta]\nhostname = "${id}.mta.test"\nretry = ["1s"]\n[mta.routes]\n"*" = "127.0.0.1:${sinkPort}"\n`);
  return { id, file, base: `http://127.0.0.1:${port}`, proc: null };
}

async function serve(n: Node) {
  n.proc = Bun.spawn(["bun", MAIN, "--config", n.file, "serve"], { stdout: "ignore", stderr: "ignore" });
  for (let i = 0; i < 300 && !(await fetch(`${n.base}/healthz`).then((r) => r.ok, () => false)); i++) await Bun.sleep(100);
}

function call(n: Node, key: string, method: string, path: string, body?: unknown) {
  return fetch(`${n.base}${path}`, { method, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
}

async function send(n: Node, key: string, to: string, extra: Record<string, unknown> = {}) {
  const res = await call(n, key, "POST", "/v3/mail/send", { personalizations: [{ to: [{ email: to }] }], from: { email: "a@example.com" },
    subject: to, content: [{ type: "text/plain", value: "x" }], ...extra });
  expect(res.status).toBe(202);
}

async function until(what: string, ok: () => boolean, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(25);
  }
}

const to = (sink: Sink, rcpt: string) => sink.messages.filter((m) => m.to.includes(rcpt)).length;

let sink: Sink;
let seed: App;
let key: string;
let a: Node;
let b: Node;

beforeAll(async () => {
  if (!pg) return;
  sink = await startSink();
  const url = await pg.createDatabase("shared");
  seed = await createApp(loadConfig({ file: (await node("seed", url, sink.port)).file, env: {} }), { log: createLogger({ level: "silent" }) });
  await seed.domains.add("example.com");
  await seed.domains.verify("example.com", true);
  key = (await seed.access.createKey({ kind: "domain", domain: "example.com" })).key;
  [a, b] = [await node("us-a", url, sink.port), await node("us-b", url, sink.port)];
  await Promise.all([serve(a), serve(b)]);
}, 60_000);

afterAll(async () => {
  for (const n of [a, b]) n?.proc?.kill("SIGTERM");
  await Promise.all([a?.proc?.exited, b?.proc?.exited]);
  await seed?.stop();
  await sink?.close();
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
}, 30_000);

describe.skipIf(pg === null)("two nodes of zone us share state through PostgreSQL", () => {
  test("a key revoked elsewhere is refused at the other node's very next request", async () => {
    const created = await seed.access.createKey({ kind: "domain", domain: "example.com" });
    for (const n of [a, b]) expect((await call(n, created.key, "GET", "/v3/user/scheduled_sends")).status).toBe(200);
    await seed.access.revokeKey(created.id);
    for (const n of [b, a]) {
      const res = await call(n, created.key, "GET", "/v3/user/scheduled_sends");
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ errors: [{ field: null, help: null, message: "The provided authorization grant is invalid, expired, or revoked" }] });
    }
  }, 20_000);

  test("a scheduled send cancelled at the other node is never delivered; one paused at B and resumed at A is delivered once", async () => {
    const batch = async (n: Node) => ((await (await call(n, key, "POST", "/v3/mail/batch")).json()) as { batch_id: string }).batch_id;
    const [cancelled, paused] = [await batch(a), await batch(b)];
    // send_at far enough ahead that the holds below are set before it, even on a loaded machine.
    const sendAt = Math.ceil(Date.now() / 1000) + 6;
    await send(a, key, "cancelled@dest.test", { send_at: sendAt, batch_id: cancelled });
    await send(b, key, "paused@dest.test", { send_at: sendAt, batch_id: paused });
    expect((await call(b, key, "POST", "/v3/user/scheduled_sends", { batch_id: cancelled, status: "cancel" })).status).toBe(201);
    expect((await call(b, key, "POST", "/v3/user/scheduled_sends", { batch_id: paused, status: "pause" })).status).toBe(201);
    expect(await (await call(a, key, "GET", `/v3/user/scheduled_sends/${paused}`)).json()).toEqual([{ batch_id: paused, status: "pause" }]);
    // Past send_at plus a margin of several claim rounds: neither node delivered either message.
    const control = "control@dest.test";
    await Bun.sleep(Math.max(0, sendAt * 1000 - Date.now()) + 3_000);
    await send(a, key, control);
    await until("the control message", () => to(sink, control) === 1);
    expect([to(sink, "cancelled@dest.test"), to(sink, "paused@dest.test")]).toEqual([0, 0]);
    expect((await call(a, key, "DELETE", `/v3/user/scheduled_sends/${paused}`)).status).toBe(204);
    await until("the resumed message", () => to(sink, "paused@dest.test") >= 1);
    // Another recheck period of the paused mail (5 s) and more: still once, and the cancelled one never.
    await Bun.sleep(6_000);
    expect([to(sink, "cancelled@dest.test"), to(sink, "paused@dest.test")]).toEqual([0, 1]);
  }, 40_000);

  test("the event webhook posts every event of mail sent through both nodes once", async () => {
    const receiver = startReceiver();
    try {
      const res = await call(a, key, "PATCH", "/v3/user/webhooks/event/settings", { enabled: true, url: receiver.url, delivered: true, processed: true });
      expect(res.status).toBe(200);
      const rcpts = Array.from({ length: 20 }, (_, i) => `hook${i}@dest.test`);
      await Promise.all(rcpts.map((r, i) => send(i % 2 ? a : b, key, r)));
      await until("every message delivered", () => rcpts.every((r) => to(sink, r) >= 1));
      const events = () => receiver.received.flatMap((r) => (Array.isArray(r.json) ? r.json : []) as { email: string; event: string; sg_event_id: string }[])
        .filter((e) => rcpts.includes(e.email));
      const kinds = (kind: string) => new Set(events().filter((e) => e.event === kind).map((e) => e.email));
      await until("a delivered and a processed event per message", () => kinds("delivered").size === rcpts.length && kinds("processed").size === rcpts.length);
      // The outbox retries after 1 s: wait past that for any event posted a second time.
      await Bun.sleep(3_000);
      const ids = events().map((e) => e.sg_event_id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(events().filter((e) => e.event === "delivered").length).toBe(rcpts.length);
      expect(events().filter((e) => e.event === "processed").length).toBe(rcpts.length);
    } finally {
      receiver.stop();
    }
  }, 40_000);
});

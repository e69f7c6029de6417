// SIGTERM of a real `postern serve` partway through 2,000 deliveries to a sink answering in 20 ms:
// the process exits 0, and after a restart every recipient is delivered exactly once (counted at the
// sink by Message-ID). A second case stops a server whose MX tarpits: the grace bounds the stop,
// the recipients on the wire stay queued and are delivered after the restart. A third watches the
// listeners while a stop drains: 503 in the surface's shape over HTTP, 421 to a new SMTP connection.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { createApp } from "../../src/app.ts";
import { createLogger } from "../../src/log.ts";
import { writeConfig } from "../helpers/app.ts";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";
import SMTPConnection from "nodemailer/lib/smtp-connection/index.js";
import { spawnServe as serve } from "../helpers/proc.ts";

const dirs: string[] = [];
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

/** A data directory with `n` recipients queued (one message each) for the sink. */
async function queued(sink: Sink, n: number, extra = "", server = "") {
  const dir = mkdtempSync(join(tmpdir(), "postern-stop-"));
  dirs.push(dir);
  const file = writeConfig(dir, `[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n${extra}`, server);
  const app = await createApp(loadConfig({ file, env: {} }), { log: createLogger({ level: "silent" }) });
  await app.domains.add("example.com");
  await app.domains.verify("example.com", true);
  const principal = { accountId: 1, keyId: "test", kind: "account" as const, domain: null, grants: [] };
  for (let i = 0; i < n; i += 100) {
    await app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "a@example.com" },
      envelopes: Array.from({ length: Math.min(100, n - i) }, (_, j) => ({ to: [{ email: `r${i + j}@dest.test` }], subject: "queued", text: "x" })) });
  }
  await app.stop();
  return file;
}

const messageIdOf = (raw: Buffer) => /^Message-ID:\s*(\S+)/im.exec(raw.toString("latin1"))?.[1] ?? "";

async function waitDelivered(sink: Sink, n: number) {
  const deadline = Date.now() + 90_000;
  while (new Set(sink.messages.map((m) => messageIdOf(m.raw))).size < n && Date.now() < deadline) await Bun.sleep(100);
}

test("SIGTERM at 40 % of 2,000 deliveries: exit 0, then nothing lost and nothing delivered twice", async () => {
  const sink = await startSink({ delayMs: 20 });
  const file = await queued(sink, 2000);
  const first = await serve(file);
  await sink.waitFor(800, 90_000);
  first.proc.kill("SIGTERM");
  expect(await first.proc.exited).toBe(0);
  const atStop = sink.messages.length;
  expect(atStop).toBeLessThan(2000);

  const second = await serve(file);
  await waitDelivered(sink, 2000);
  second.proc.kill("SIGTERM");
  expect(await second.proc.exited).toBe(0);
  await sink.close();

  const ids = sink.messages.map((m) => messageIdOf(m.raw));
  const copies = new Map<string, number>();
  for (const id of ids) copies.set(id, (copies.get(id) ?? 0) + 1);
  expect(copies.size).toBe(2000);
  expect([...copies].filter(([, n]) => n > 1)).toEqual([]);
  console.log(`clean stop: ${atStop} delivered before SIGTERM's exit, ${sink.messages.length - atStop} after the restart, none twice`);
}, 240_000);

test("a tarpitting MX does not hold the stop past shutdown_grace; its recipients stay queued", async () => {
  // The tarpit answers the end of DATA after 10 minutes: only the grace can end the stop.
  const tarpit = await startSink({ delayMs: 600_000 });
  const file = await queued(tarpit, 3, "", 'shutdown_grace = "2s"\n');
  const server = await serve(file);
  await tarpit.waitFor(1, 30_000);
  const signalled = Date.now();
  server.proc.kill("SIGTERM");
  expect(await server.proc.exited).toBe(0);
  // A bound, not a timing: far under the tarpit's 10 minutes.
  expect(Date.now() - signalled).toBeLessThan(60_000);
  await tarpit.close().catch(() => {});

  // The recipients cut off by the stop were not recorded as delivered: a restart delivers them.
  const sink = await startSink();
  const { writeFileSync, readFileSync } = await import("node:fs");
  writeFileSync(file, readFileSync(file, "utf8").replace(`127.0.0.1:${tarpit.port}`, `127.0.0.1:${sink.port}`));
  const again = await serve(file);
  await sink.waitFor(3, 60_000);
  again.proc.kill("SIGTERM");
  expect(await again.proc.exited).toBe(0);
  await sink.close();
  expect(new Set(sink.messages.flatMap((m) => m.to)).size).toBe(3);
}, 180_000);

test("while a stop drains, new HTTP requests get the surface's 503 and new SMTP connections 421", async () => {
  // The sink takes 3 s to answer each DATA: the stop waits for the one on the wire.
  const sink = await startSink({ delayMs: 3000 });
  const file = await queued(sink, 1, "", 'shutdown_grace = "20s"\n');
  const app = await createApp(loadConfig({ file, env: {} }), { log: createLogger({ level: "silent" }) });
  const key = (await app.access.createKey({ kind: "domain", domain: "example.com" })).key;
  const where = await app.start();
  await sink.waitFor(1, 20_000);
  const stopped = app.stop();
  const res = await fetch(`http://${where.http}/v3/mail/send`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ personalizations: [{ to: [{ email: "late@dest.test" }] }], from: { email: "a@example.com" }, subject: "x", content: [{ type: "text/plain", value: "x" }] }) });
  expect(res.status).toBe(503);
  expect(res.headers.get("retry-after")).toBeTruthy();
  expect(((await res.json()) as { errors: { message: string }[] }).errors[0]!.message).toContain("shutting down");
  const mg = await fetch(`http://${where.http}/v3/example.com/messages`, { method: "POST", headers: { authorization: `Basic ${btoa(`api:${key}`)}` },
    body: new URLSearchParams({ from: "a@example.com", to: "late@dest.test", subject: "x", text: "x" }) });
  expect(mg.status).toBe(503);
  const greeting = await new Promise<number | undefined>((resolve) => {
    const conn = new SMTPConnection({ host: "127.0.0.1", port: Number(where.smtp!.split(":").pop()), ignoreTLS: true });
    conn.on("error", (e: Error & { responseCode?: number }) => resolve(e.responseCode));
    conn.connect(() => { conn.quit(); resolve(220); });
  });
  expect(greeting).toBe(421);
  await stopped;
  // The message on the wire finished and its outcome was written: a restart sends nothing again.
  expect(sink.messages.length).toBe(1);
  expect(sink.messages[0]!.replied).toBe(true);
  const again = await createApp(loadConfig({ file, env: {} }), { log: createLogger({ level: "silent" }) });
  expect((await again.store.zone("us").queueStats(Date.now())).queued).toBe(0);
  await again.stop();
  await sink.close();
}, 60_000);

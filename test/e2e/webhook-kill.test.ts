// kill -9 while webhook POSTs are in flight: the restarted server takes those outbox items back at
// once (as the mail queue does) instead of waiting out their 120 s lease, and no event is lost.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { createApp } from "../../src/app.ts";
import { createLogger } from "../../src/log.ts";
import { writeConfig } from "../helpers/app.ts";
import { startSink } from "../helpers/smtp-sink.ts";
import { startHungTarget } from "../helpers/hung-target.ts";

const MESSAGES = 6;
const dir = mkdtempSync(join(tmpdir(), "postern-webhook-kill-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const serve = (file: string) =>
  Bun.spawn(["bun", join(import.meta.dir, "../../cli/main.ts"), "--config", file, "serve"], { stdout: "pipe", stderr: "pipe" });

const delivered = (bodies: unknown[]) => new Set(bodies.map((b) => (b as { "event-data"?: { event?: string; recipient?: string } })["event-data"])
  .filter((e) => e?.event === "delivered").map((e) => e!.recipient)).size;

test("webhook POSTs in flight at a kill -9 are posted again within seconds of the restart", async () => {
  const sink = await startSink();
  const target = startHungTarget();
  const file = writeConfig(dir, `[webhooks]\nallow_private = true\nretry = ["1s"]\n[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n`);
  const app = await createApp(loadConfig({ file, env: {} }), { log: createLogger({ level: "silent" }) });
  await app.domains.add("example.com");
  await app.domains.verify("example.com", true);
  const d = (await app.domains.get("example.com"))!;
  await app.webhooks.create({ domainId: d.id, events: ["delivered"], url: target.url, format: "mailgun", extra: { mailgunId: "delivered" } });
  const principal = { accountId: 1, keyId: "test", kind: "account" as const, domain: null, grants: [] };
  for (let i = 0; i < MESSAGES; i++) {
    await app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "a@example.com" },
      envelopes: [{ to: [{ email: `r${i}@dest.test` }], subject: `m${i}`, text: "x" }] });
  }
  await app.stop();

  const first = serve(file);
  const until = Date.now() + 30_000;
  while (target.received.length < 4 && Date.now() < until) await Bun.sleep(50);
  expect(target.received.length).toBeGreaterThanOrEqual(4); // four POSTs held open: the target's slots
  first.kill(9);
  await first.exited;
  target.recover();
  // Only what arrives from now on counts: the held POSTs were never acknowledged.
  const before = target.received.length;
  const bodies = () => target.received.slice(before).map((r) => r.json);

  const second = serve(file);
  const restarted = Date.now();
  while (delivered(bodies()) < MESSAGES && Date.now() - restarted < 30_000) await Bun.sleep(100);
  const took = Date.now() - restarted;
  second.kill("SIGTERM");
  await second.exited;
  target.stop();
  await sink.close();
  expect(delivered(bodies())).toBe(MESSAGES);
  expect(took).toBeLessThan(30_000); // a 120 s lease would not have run out yet
}, 120_000);

// The fan-out behind the accept (src/webhooks/fanout.ts): a node that starts on events nobody fanned
// out yet has none of their messages in memory. Events no target wants are passed over after one
// read of the batch's callback URLs; a message with a callback still gets its posts, and a domain's
// targets still get theirs (#41).
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";
import { startReceiver } from "../helpers/receiver.ts";
import type { Principal } from "../../src/core/model.ts";
import { createFanout } from "../../src/webhooks/fanout.ts";

const apps: TestApp[] = [];
let sink: Sink | null = null;
const receivers: ReturnType<typeof startReceiver>[] = [];
afterEach(async () => { for (const a of apps.splice(0)) await a.close(); await sink?.close(); receivers.splice(0).forEach((r) => r.stop()); sink = null; });

async function open(dir: string) {
  const toml = `[webhooks]\nallow_private = true\nretry = ["200ms"]\n[mta.routes]\n"*" = "127.0.0.1:${sink!.port}"\n`;
  const t = await makeTestApp({ toml, dir, keepDir: true });
  apps.push(t);
  return t;
}

const send = (t: TestApp, p: Principal, to: string, callbackUrl?: string) => t.app.sender.send(p, { domain: "example.com", source: "sendgrid",
  from: { email: "a@example.com" }, envelopes: [{ to: [{ email: to }], subject: "s", text: "t" }], ...(callbackUrl && { callbackUrl }) });

/** Accepts two messages on a node that is not started (nothing fanned out or sent), then stops it. */
async function acceptWhileStopped(dir: string, callbackUrl: string, withTarget?: string) {
  const first = await open(dir);
  const p = (await first.app.access.authenticate(first.domainKey)) as Principal;
  const a = await send(first, p, "a@dest.test", callbackUrl);
  const b = await send(first, p, "b@dest.test");
  if (withTarget) {
    const d = (await first.app.domains.get("example.com"))!;
    await first.app.webhooks.create({ domainId: d.id, events: ["delivered"], url: withTarget, format: "sendgrid", extra: {} });
  }
  await first.close();
  apps.splice(apps.indexOf(first), 1);
  return { a: a.messages[0]!.id, b: b.messages[0]!.id };
}

const emails = (r: ReturnType<typeof startReceiver>) => r.received.flatMap((q) => (q.json as { email: string }[]).map((e) => e.email));

test("with no target, a restarted node posts the callback's events and queues nothing for the other message", async () => {
  sink = await startSink();
  const dir = mkdtempSync(join(tmpdir(), "postern-fanout-"));
  const callback = startReceiver(200);
  receivers.push(callback);
  const ids = await acceptWhileStopped(dir, callback.url);
  const second = await open(dir);
  await second.app.start();
  await callback.waitFor((x) => x.flatMap((q) => q.json as { event: string }[]).some((e) => e.event === "delivered"));
  await Bun.sleep(300);
  expect(new Set(emails(callback))).toEqual(new Set(["a@dest.test"]));
  const zone = second.app.store.zone(second.app.store.zoneNames()[0]!);
  expect((await zone.webhookPostsFor("example.com", ids.b, 10)).length).toBe(0);
});

test("a domain's target gets the events of messages read back after a restart; the callback keeps its own", async () => {
  sink = await startSink();
  const dir = mkdtempSync(join(tmpdir(), "postern-fanout-"));
  const callback = startReceiver(200);
  const target = startReceiver(200);
  receivers.push(callback, target);
  await acceptWhileStopped(dir, callback.url, target.url);
  const second = await open(dir);
  await second.app.start();
  await target.waitFor((x) => x.length >= 1);
  await callback.waitFor((x) => x.flatMap((q) => q.json as { event: string }[]).some((e) => e.event === "delivered"));
  await Bun.sleep(300);
  expect(new Set(emails(target))).toEqual(new Set(["b@dest.test"]));
  expect(new Set(emails(callback))).toEqual(new Set(["a@dest.test"]));
});

test("accepted messages are held for the fan-out only when something will be posted for them (#41)", async () => {
  sink = await startSink();
  const t = await open(mkdtempSync(join(tmpdir(), "postern-fanout-")));
  const p = (await t.app.access.authenticate(t.domainKey)) as Principal;
  const fanout = createFanout({ store: t.app.store, now: () => Date.now() });
  const zone = t.app.store.zone(t.app.store.zoneNames()[0]!);
  const stored = async (id: string) => (await zone.getMessage(id))!;
  const plain = await stored((await send(t, p, "a@dest.test")).messages[0]!.id);
  const calling = await stored((await send(t, p, "b@dest.test", "http://127.0.0.1:9/cb")).messages[0]!.id);
  await fanout.remember([plain, calling]);
  expect([fanout.holds(plain.id), fanout.holds(calling.id)]).toEqual([false, true]);
  const d = (await t.app.domains.get("example.com"))!;
  await t.app.webhooks.create({ domainId: d.id, events: ["delivered"], url: "http://127.0.0.1:9/hook", format: "sendgrid", extra: {} });
  await fanout.remember([plain]);
  expect(fanout.holds(plain.id)).toBe(true);
});

import { afterEach, describe, expect, test } from "bun:test";
import { createHmac, createPublicKey, createVerify } from "node:crypto";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { startSink, type RcptScript, type Sink } from "../helpers/smtp-sink.ts";
import { startReceiver } from "../helpers/receiver.ts";
import type { Principal } from "../../src/core/model.ts";

let t: TestApp | null = null;
let sink: Sink | null = null;
const receivers: ReturnType<typeof startReceiver>[] = [];
afterEach(async () => { await t?.close(); await sink?.close(); receivers.splice(0).forEach((r) => r.stop()); t = null; sink = null; });

const WEBHOOK_TOML = `[webhooks]\nallow_private = true\nretry = ["200ms"]\n`;

async function setup(script?: RcptScript, extra = WEBHOOK_TOML, dir?: string) {
  sink = await startSink({ script });
  t = await makeTestApp({ toml: `${extra}[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n`, dir, keepDir: Boolean(dir) });
  await t.app.start();
  return (await t.app.access.authenticate(t.domainKey)) as Principal;
}

function receiver(status = 200) { const r = startReceiver(status); receivers.push(r); return r; }
const send = (p: Principal, to: string, extra: Record<string, unknown> = {}) => t!.app.sender.send(p, { domain: "example.com", source: "mailgun",
  from: { email: "a@example.com" }, envelopes: [{ to: [{ email: to }], subject: "s", text: "t", metadata: { user: "42" } }], tags: ["t1"], ...extra });

describe("webhook delivery", () => {
  test("a hard bounce reaches a Mailgun permanent_fail webhook with a verifiable signature", async () => {
    const p = await setup(() => ({ code: 550, message: "5.1.1 no such user" }));
    const r = receiver();
    const d = (await t!.app.domains.get("example.com"))!;
    await t!.app.webhooks.create({ domainId: d.id, events: ["permanent_fail"], url: r.url, format: "mailgun", extra: {} });
    await send(p, "gone@dest.test");
    const [req] = await r.waitFor((x) => x.length >= 1);
    const body = req!.json as { signature: { timestamp: string; token: string; signature: string }; "event-data": Record<string, unknown> };
    const key = await t!.app.events.keys.forDomain("example.com"); // the domain's own key
    expect(createHmac("sha256", key).update(body.signature.timestamp + body.signature.token).digest("hex")).toBe(body.signature.signature);
    expect(body["event-data"]).toMatchObject({ event: "failed", severity: "permanent", recipient: "gone@dest.test", tags: ["t1"], "user-variables": { user: "42" } });
    expect((body["event-data"]["delivery-status"] as { code: number }).code).toBe(550);
    await Bun.sleep(300);
    expect(r.received).toHaveLength(1); // accepted/temporary events were not subscribed
  });

  test("a SendGrid callback_url gets event arrays signed with ECDSA, verifiable with the published key", async () => {
    const p = await setup();
    const r = receiver();
    await send(p, "ok@dest.test", { source: "sendgrid", callbackUrl: r.url });
    const got = await r.waitFor((x) => x.flatMap((q) => q.json as { event: string }[]).some((e) => e.event === "delivered"));
    const req = got.find((q) => (q.json as { event: string }[]).some((e) => e.event === "delivered"))!;
    const publicKey = createPublicKey({ key: Buffer.from(t!.app.events.publicKey, "base64"), format: "der", type: "spki" });
    const ts = req.headers.get("x-twilio-email-event-webhook-timestamp")!;
    const sig = req.headers.get("x-twilio-email-event-webhook-signature")!;
    expect(createVerify("sha256").update(ts + req.body).verify(publicKey, Buffer.from(sig, "base64"))).toBe(true);
    expect((req.json as Record<string, unknown>[])[0]).toMatchObject({ email: "ok@dest.test", user: "42", category: ["t1"] });
  });

  test("SparkPost targets get msys batches with their basic auth", async () => {
    const p = await setup();
    const r = receiver();
    const d = (await t!.app.domains.get("example.com"))!;
    await t!.app.webhooks.create({ domainId: d.id, events: ["delivery"], url: r.url, format: "sparkpost",
      extra: { auth_type: "basic", auth_credentials: { username: "u", password: "p" } } });
    const sent = await send(p, "sp@dest.test", { source: "sparkpost", campaignId: "spring", ipPool: "default" });
    const [req] = await r.waitFor((x) => x.length >= 1);
    expect(req!.headers.get("authorization")).toBe(`Basic ${btoa("u:p")}`);
    expect(req!.headers.get("x-messagesystems-batch-id")).toBeTruthy();
    expect((req!.json as { msys: { message_event: Record<string, unknown> } }[])[0]!.msys.message_event).toMatchObject({ type: "delivery", rcpt_to: "sp@dest.test",
      transmission_id: sent.sendId, message_id: sent.id, campaign_id: "spring", ip_pool: "default" });
  });

  test("a receiver that is down gets every event once it comes back, also after a restart", async () => {
    const { mkdtempSync } = await import("node:fs");
    const dir = mkdtempSync(`${(await import("node:os")).tmpdir()}/postern-wh-`);
    const p = await setup(undefined, WEBHOOK_TOML, dir);
    const r = receiver(503);
    const d = (await t!.app.domains.get("example.com"))!;
    await t!.app.webhooks.create({ domainId: d.id, events: ["delivered"], url: r.url, format: "mailgun", extra: {} });
    for (let i = 0; i < 3; i++) await send(p, `down${i}@dest.test`);
    await r.waitFor((x) => x.length >= 3);
    await t!.app.stop();
    r.setStatus(200);
    const failedSoFar = r.received.length;
    t = await makeTestApp({ toml: `${WEBHOOK_TOML}[mta.routes]\n"*" = "127.0.0.1:${sink!.port}"\n`, dir });
    await t.app.start();
    const recipientsAfter = () => new Set(r.received.slice(failedSoFar).map((q) => (q.json as { "event-data": { recipient: string } })["event-data"].recipient));
    await r.waitFor(() => recipientsAfter().size === 3);
    expect([...recipientsAfter()].sort()).toEqual(["down0@dest.test", "down1@dest.test", "down2@dest.test"]);
    const stats = await t.app.store.zone("us").webhookStats();
    for (let i = 0; i < 40 && !stats.some((s) => s.status === "delivered" && s.count === 3); i++) { await Bun.sleep(50); stats.splice(0, stats.length, ...(await t.app.store.zone("us").webhookStats())); }
    expect(stats.find((s) => s.status === "delivered")?.count).toBe(3);
  }, 30_000);

  test("loopback targets are refused unless allow_private is set", async () => {
    const p = await setup(undefined, `[webhooks]\nretry = ["200ms"]\n`);
    const r = receiver();
    await send(p, "x@dest.test", { callbackUrl: r.url });
    for (let i = 0; i < 60; i++) {
      const stats = await t!.app.store.zone("us").webhookStats();
      if (stats.some((s) => s.status === "expired")) break;
      await Bun.sleep(50);
    }
    expect(r.received).toHaveLength(0);
    expect((await t!.app.store.zone("us").webhookStats()).some((s) => s.status === "expired")).toBe(true);
  });
  test("a dead target's POSTs are given up when the lifetime ends", async () => {
    const p = await setup(undefined, `[webhooks]\nallow_private = true\nretry = ["200ms"]\nlifetime = "2s"\n`);
    const dead = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const url = `http://127.0.0.1:${dead.port}/hook`;
    dead.stop(true); // nothing listens there any more: every POST is refused
    const d = (await t!.app.domains.get("example.com"))!;
    await t!.app.webhooks.create({ domainId: d.id, events: ["delivered"], url, format: "mailgun", extra: { mailgunId: "delivered" } });
    await send(p, "ok@dest.test");
    const zone = t!.app.store.zone(t!.app.store.zoneNames()[0]!);
    const end = Date.now() + 15_000;
    let stats: { status: string; count: number }[] = [];
    while (Date.now() < end) {
      stats = await zone.webhookStats();
      if (stats.some((s) => s.status === "expired") && !stats.some((s) => s.status === "pending")) break;
      await Bun.sleep(200);
    }
    expect(stats.find((s) => s.status === "expired")?.count).toBe(1);
    expect(stats.some((s) => s.status === "pending")).toBe(false);
  }, 30_000);
});

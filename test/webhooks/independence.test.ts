// Webhook targets cannot hold each other up: a target that never answers gets its POSTs timed out
// on its own lane, while a healthy target of the same installation receives every event promptly.
import { afterEach, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";
import { startReceiver } from "../helpers/receiver.ts";
import { startHungTarget } from "../helpers/hung-target.ts";
import type { Principal } from "../../src/core/model.ts";

let t: TestApp | null = null;
let sink: Sink | null = null;
const stops: (() => void)[] = [];
afterEach(async () => { await t?.close(); await sink?.close(); stops.splice(0).forEach((s) => s()); t = null; sink = null; });

const MESSAGES = 40;

describe("independent webhook targets", () => {
  test("a hung target beside a healthy one: the healthy one gets every event within seconds", async () => {
    sink = await startSink();
    // The default 10 s timeout: a delivery that waited for the hung target's POSTs would take minutes.
    t = await makeTestApp({ toml: `[webhooks]\nallow_private = true\n[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n` });
    await t.app.start();
    const hung = startHungTarget();
    const healthy = startReceiver();
    stops.push(hung.stop, healthy.stop);
    const d = (await t.app.domains.get("example.com"))!;
    await t.app.webhooks.create({ domainId: d.id, events: ["delivered"], url: hung.url, format: "mailgun", extra: { mailgunId: "delivered" } });
    await t.app.webhooks.create({ domainId: d.id, events: ["delivered"], url: healthy.url, format: "mailgun", extra: { mailgunId: "delivered" } });
    t.app.events.poke();
    const p = (await t.app.access.authenticate(t.domainKey)) as Principal;
    for (let i = 0; i < MESSAGES; i++) {
      await t.app.sender.send(p, { domain: "example.com", source: "mailgun", from: { email: "a@example.com" },
        envelopes: [{ to: [{ email: `r${i}@dest.test` }], subject: "s", text: "t" }] });
    }
    const started = Date.now();
    await healthy.waitFor((x) => x.length >= MESSAGES, 8_000);
    expect(Date.now() - started).toBeLessThan(8_000);
    // The hung target holds its own slots (concurrency_per_target, 4 by default) and no more.
    expect(hung.received.length).toBeLessThanOrEqual(4);
    const lane = t.app.events.lanes().find((l) => l.key === hung.url);
    expect(lane?.inFlight).toBe(4);
  }, 30_000);
  test("after an outage a target gets its waiting events within seconds of answering again, whatever their own retry schedule", async () => {
    sink = await startSink();
    // Items wait a minute after their second failure: only the target's probe (every 500 ms here,
    // 5 s by default) can bring them earlier.
    t = await makeTestApp({ toml: `[webhooks]\nallow_private = true\nretry = ["200ms", "60s"]\nprobe_interval = "500ms"\n[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n` });
    await t.app.start();
    const r = startReceiver(503);
    stops.push(r.stop);
    const d = (await t.app.domains.get("example.com"))!;
    await t.app.webhooks.create({ domainId: d.id, events: ["delivered"], url: r.url, format: "mailgun", extra: { mailgunId: "delivered" } });
    const p = (await t.app.access.authenticate(t.domainKey)) as Principal;
    for (let i = 0; i < 5; i++) {
      await t.app.sender.send(p, { domain: "example.com", source: "mailgun", from: { email: "a@example.com" },
        envelopes: [{ to: [{ email: `o${i}@dest.test` }], subject: "s", text: "t" }] });
    }
    const seen = () => new Set(r.received.map((q) => (q.json as { "event-data": { recipient: string } })["event-data"].recipient)).size;
    await r.waitFor(() => seen() >= 5, 30_000); // every item refused at least once; the failed target is only probed now
    const failedBefore = r.received.length;
    // Backed off by probe_interval, not by the items' 60 s step.
    const lane = t.app.events.lanes().find((l) => l.key === r.url)!;
    expect(lane.failures).toBeGreaterThan(1);
    expect(lane.openAt - Date.now()).toBeLessThanOrEqual(500);
    r.setStatus(200);
    const back = Date.now();
    const delivered = () => new Set(r.received.slice(failedBefore).map((q) => (q.json as { "event-data": { recipient: string } })["event-data"].recipient)).size;
    while (delivered() < 5 && Date.now() - back < 20_000) await Bun.sleep(50);
    expect(delivered()).toBe(5);
    expect(Date.now() - back).toBeLessThan(10_000); // the probe runs at least every 500 ms; the items' schedule said 60 s
  }, 60_000);
});

// Webhook delivery benchmark: events per second to a fast local target (Mailgun format, one event
// per POST; SendGrid format, batches of 100), and the latency of a healthy target while a second
// target of the same domain hangs (never answers), against the same healthy target alone.
// Run: `bun bench/webhooks.ts`. Everything on 127.0.0.1; events are recorded through the recorder.
import { makeTestApp, type TestApp } from "../test/helpers/app.ts";
import { startReceiver } from "../test/helpers/receiver.ts";
import { startHungTarget } from "../test/helpers/hung-target.ts";
import type { MessageEvent } from "../src/core/model.ts";

const TOML = `[webhooks]\nallow_private = true\n`;
let seq = 0;

function events(n: number): MessageEvent[] {
  const at = Date.now();
  return Array.from({ length: n }, () => {
    const i = seq++;
    return { id: `ev${i}`, type: "delivered", messageId: `m${i}`, recipient: `r${i}@dest.test`, domain: "example.com", timestamp: at, tags: [], metadata: {} };
  });
}

async function withApp<T>(fn: (t: TestApp) => Promise<T>): Promise<T> {
  const t = await makeTestApp({ toml: TOML });
  await t.app.start();
  try { return await fn(t); } finally { await t.close(); }
}

async function addTarget(t: TestApp, url: string, format: string) {
  const d = (await t.app.domains.get("example.com"))!;
  await t.app.webhooks.create({ domainId: d.id, events: ["delivered"], url, format, extra: format === "mailgun" ? { mailgunId: "delivered" } : {} });
  t.app.events.poke();
}

/** Records events through the one writer, which also wakes the webhook pipeline. */
const record = (t: TestApp, evs: MessageEvent[]) => t.app.recorder.record(t.app.store.zoneNames()[0]!, { events: evs });

async function throughput(format: string, n: number): Promise<number> {
  return withApp(async (t) => {
    const r = startReceiver();
    await addTarget(t, r.url, format);
    const count = () => r.received.reduce((s, q) => s + (Array.isArray(q.json) ? q.json.length : 1), 0);
    const started = performance.now();
    for (let i = 0; i < n; i += 500) await record(t, events(Math.min(500, n - i)));
    while (count() < n) await Bun.sleep(5);
    const s = (performance.now() - started) / 1000;
    r.stop();
    return n / s;
  });
}

async function latency(withHung: boolean, n: number, perSecond: number): Promise<number[]> {
  return withApp(async (t) => {
    const hung = startHungTarget();
    const r = startReceiver();
    if (withHung) await addTarget(t, hung.url, "mailgun");
    await addTarget(t, r.url, "mailgun");
    const sentAt = new Map<string, number>();
    const arrived = new Map<string, number>();
    const watch = setInterval(() => {
      for (const q of r.received) {
        const id = (q.json as { "event-data"?: { id?: string } })["event-data"]?.id;
        if (id && !arrived.has(id)) arrived.set(id, performance.now());
      }
    }, 2);
    for (let i = 0; i < n; i++) {
      const [e] = events(1);
      sentAt.set(e!.id, performance.now());
      await record(t, [e!]);
      await Bun.sleep(1000 / perSecond);
    }
    const end = Date.now() + 60_000;
    while (arrived.size < n && Date.now() < end) await Bun.sleep(10);
    clearInterval(watch);
    hung.stop();
    r.stop();
    return [...sentAt].map(([id, at]) => (arrived.get(id) ?? Infinity) - at).sort((a, b) => a - b);
  });
}

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(0)} ms` : "lost");

console.log("webhook delivery to a local target (events/s, end to end from the events table)");
console.log(`  mailgun format (1 event per POST), 3000 events:   ${(await throughput("mailgun", 3000)).toFixed(0)} events/s`);
console.log(`  sendgrid format (batches of 100), 20000 events:   ${(await throughput("sendgrid", 20000)).toFixed(0)} events/s`);
console.log("\nlatency of a healthy target, 150 events at 10/s (record → received)");
for (const withHung of [false, true]) {
  const xs = await latency(withHung, 150, 10);
  console.log(`  ${withHung ? "beside a hung target" : "alone               "}: median ${ms(pct(xs, 0.5))}, p95 ${ms(pct(xs, 0.95))}, max ${ms(xs.at(-1)!)}`);
}

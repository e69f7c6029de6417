// A fixed-rate accept-latency probe, run as its own process next to the saturating load of
// bench/mta.ts: one message every `interval` ms whatever the previous one is doing (open loop, so
// a stall is measured, not skipped), on connections of its own, so what it measures is the
// server's accept latency and not the load client's own queueing. Stops when its stdin closes and
// prints one JSON line: {"sent": n, "latencies": [ms, ...]}.
//   bun bench/accept-probe.ts http <base-url> <api-key> <interval-ms>
//   bun bench/accept-probe.ts smtp <port> <interval-ms>
import nodemailer from "nodemailer";

const [mode, ...rest] = process.argv.slice(2);
const text = "Hello, this is an accept-latency probe. ".repeat(20);
const html = `<html><body>${"<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>".repeat(40)}</body></html>`;

function httpSender(base: string, key: string) {
  return async (i: number) => {
    const res = await fetch(`${base}/v3/mail/send`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ personalizations: [{ to: [{ email: `probe${i}@probe.test` }] }], from: { email: "news@bench.example", name: "Bench" },
        subject: `Probe ${i}`, content: [{ type: "text/plain", value: text }, { type: "text/html", value: html }] }) });
    if (res.status !== 202) throw new Error(`probe ${i}: ${res.status} ${await res.text()}`);
  };
}

function smtpSender(port: number) {
  // A few connections of its own: a probe sent while the previous one is still waiting is not queued behind it.
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port, pool: true, maxConnections: 8, maxMessages: Infinity, ignoreTLS: true });
  return async (i: number) => {
    await transport.sendMail({ from: { address: "news@bench.example", name: "Bench" }, to: `probe${i}@probe.test`, subject: `Probe ${i}`, text, html });
  };
}

const send = mode === "http" ? httpSender(rest[0]!, rest[1]!) : smtpSender(Number(rest[0]));
const interval = Number(mode === "http" ? rest[2] : rest[1]);
const latencies: number[] = [];
const inFlight = new Set<Promise<void>>();
let sent = 0;
let stopped = false;
const start = performance.now();
// Ticks on a fixed schedule from the start (a late tick does not shift the ones after it).
const tick = () => {
  if (stopped) return;
  const i = sent++;
  const t = performance.now();
  const p = send(i).then(() => { latencies.push(performance.now() - t); }, (err) => { console.error(String(err)); })
    .finally(() => inFlight.delete(p));
  inFlight.add(p);
  setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
};
tick();
for await (const _ of process.stdin) { /* the parent never writes: stdin closing is the stop signal */ }
stopped = true;
await Promise.all([...inFlight]);
console.log(JSON.stringify({ sent, latencies }));
process.exit(0);

// A million scheduled for one instant (#41): M recipients go in through SendGrid's send_at, 50 a
// request, on the provider mix's domains, all due at the same second T. From T on, live probes go to
// the same domains at a steady rate. Prints when the first scheduled message reached the sink after
// T, the scheduled mail's drain rate over the measured window (next to the empty-queue rate
// `bench/shaped.ts` prints), the live probes' latency to the sink while the backlog drains (p50, p95,
// max: starved live mail would wait minutes), server CPU per message and peak RSS.
//
//   bun bench/due-at-once.ts [M]      M recipients (default 1,000,000)
//   --measure S                       seconds of drain measured after T (default 60); the rest is not waited for
//   --live R                          live probes per second from T on (default 20)
// postern runs as the compiled binary; BENCH_SOURCE=1 runs `bun cli/main.ts`. Smoke-run with a
// small M; figures only mean something on a quiet machine.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { prepareDomainKey, writeConfig } from "../test/helpers/app.ts";
import { pct, procCpu, procPeakMb, startServer } from "./serve.ts";
import { rsaSignMs } from "./bounds.ts";
import { mxSpecs, providerMix, routesOf, scheduleOnMix, startMxSink } from "./shaped-mix.ts";

const args = process.argv.slice(2);
const option = (name: string) => { const i = args.indexOf(name); return i >= 0 ? Number(args[i + 1]) : undefined; };
const M = Number(args.find((a, i) => /^\d+$/.test(a) && !/^--/.test(args[i - 1] ?? "")) ?? 1_000_000);
const MEASURE_S = option("--measure") ?? 60;
const LIVE_RATE = option("--live") ?? 20;
const CLIENTS = 20;
const text = "Hello, this is a scheduled benchmark message. ".repeat(20);

const sink = await startMxSink(mxSpecs({ delayMs: 0, stuck: false, throttle: false }));
const dir = mkdtempSync(join(tmpdir(), "postern-due-"));
const routes = routesOf(sink).map(([d, hop]) => `"${d}" = "${hop}"`).join("\n");
const file = writeConfig(dir, `max_connections_per_host = 20\n[mta.routes]\n${routes}\n`);
const key = await prepareDomainKey(file, "bench.example");
const server = await startServer(file, Boolean(process.env.BENCH_SOURCE));
const post = (body: unknown) => fetch(`${server.base}/v3/mail/send`, { method: "POST",
  headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) });

// T leaves time to accept M at about 10,000 a second, and 20 s more.
const dueAt = Math.ceil(Date.now() / 1000 + M / 10_000 + 20) * 1000;
const acceptS = await scheduleOnMix(server.base, key, M, { sendAt: dueAt / 1000, tag: "d", subject: "due", clients: CLIENTS, text });
console.log(`${M} recipients accepted for one instant in ${acceptS.toFixed(1)} s (${Math.round(M / acceptS)}/s); peak RSS so far ${procPeakMb(server.pid).toFixed(0)} MB`);
if (Date.now() > dueAt) console.log(`  the accept ended ${((Date.now() - dueAt) / 1000).toFixed(1)} s after T: the start below is late by that much`);
while (Date.now() < dueAt) await Bun.sleep(Math.min(50, dueAt - Date.now()));

const cpu0 = procCpu(server.pid);
const sentAt = new Map<number, number>();
let firstAt: number | null = null;
let probes = 0;
const liveTimer = setInterval(() => {
  const i = probes++;
  sentAt.set(i, Date.now());
  void post({ personalizations: [{ to: [{ email: providerMix(i) }] }], from: { email: "live@bench.example" }, subject: `probe-${i}`,
    content: [{ type: "text/plain", value: "live" }] }).catch((e) => console.error(`probe ${i}: ${e}`));
}, 1000 / LIVE_RATE);
const scheduledNow = () => sink.received() - sink.probes.size;
const end = dueAt + MEASURE_S * 1000;
while (Date.now() < end && scheduledNow() < M) {
  if (firstAt === null && scheduledNow() > 0) firstAt = Date.now();
  await Bun.sleep(20);
}
clearInterval(liveTimer);
const drained = scheduledNow();
const cpuMs = ((procCpu(server.pid) - cpu0) * 1000) / Math.max(1, drained + sink.probes.size);
const windowS = (Math.min(Date.now(), end) - (firstAt ?? dueAt)) / 1000;
await Bun.sleep(2000);
const latency = [...sentAt].filter(([i]) => sink.probes.has(i)).map(([i, t]) => sink.probes.get(i)! - t);
const sign = rsaSignMs(2);
console.log(`first scheduled message at the sink ${firstAt === null ? "never" : `${firstAt - dueAt} ms`} after T`);
console.log(`drained ${drained} of ${M} in ${windowS.toFixed(1)} s: ${Math.round(drained / Math.max(0.001, windowS))} msg/s; ` +
  `${cpuMs.toFixed(2)} ms server CPU/msg${sign ? ` (${(cpuMs / sign).toFixed(2)}× openssl's RSA-2048 sign, ${sign.toFixed(3)} ms)` : ""}`);
console.log(`live probes during the drain (${sentAt.size} sent, ${LIVE_RATE}/s to the same domains): p50 ${pct(latency, 0.5).toFixed(0)} ms, ` +
  `p95 ${pct(latency, 0.95).toFixed(0)} ms, max ${Math.max(0, ...latency).toFixed(0)} ms, ${sentAt.size - latency.length} not arrived`);
console.log(`peak RSS ${procPeakMb(server.pid).toFixed(0)} MB`);
await server.stop();
sink.stop();
rmSync(dir, { recursive: true, force: true });

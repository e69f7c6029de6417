// The MTA end to end, side by side with Postfix, in one run on one machine:
//   postern: N single-recipient messages of about 3 KB POSTed to SendGrid's /v3/mail/send on a
//     `postern serve` process, queued, DKIM-signed (RSA-2048 + Ed25519) and relayed over SMTP to a
//     counting sink (its own process);
//   Postfix: the same number of messages over SMTP into an isolated Postfix relaying to the same
//     kind of sink (skipped when Postfix is not installed or not running as root).
// Prints delivered msg/s, CPU ms per message of the server, accept latency, peak RSS, and the
// per-step costs of the hot path. Accept latency twice: of the saturating load itself (mostly its
// own queueing: 32 requests always outstanding), and of a fixed-rate probe (bench/accept-probe.ts:
// one more message every --probe-ms, default 20, in a process and on connections of its own, from
// the first request until the last message is delivered): the server's answer time under full load.
// postern runs as the compiled binary (what install.sh installs); BENCH_SOURCE=1 runs `bun cli/main.ts`.
// Run: bun bench/mta.ts [N] [--parked M] [--probe-ms MS] [--no-postfix] [--no-steps]
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import nodemailer from "nodemailer";
import { prepareDomainKey, writeConfig } from "../test/helpers/app.ts";
import { startPostfix } from "./postfix.ts";
import { measureSteps } from "./mta-steps.ts";
import { startSinkProcess, type Sink } from "./sink-process.ts";
import { binary, park, pct, procCpu, procPeakMb, serverUrl } from "./serve.ts";
import { rsaSignMs } from "./bounds.ts";

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const option = (name: string) => { const i = args.indexOf(name); return i >= 0 ? Number(args[i + 1]) : undefined; };
const N = Number(args.find((a, i) => /^\d+$/.test(a) && !/^--/.test(args[i - 1] ?? "")) ?? 10_000);
const PARKED = option("--parked") ?? 0;
const PROBE_MS = option("--probe-ms") ?? 20;
const CONCURRENT_REQUESTS = 32;
const FROM_SOURCE = Boolean(process.env.BENCH_SOURCE || process.env.BENCH_PROFILE || process.env.BENCH_MEMLOG || process.env.BENCH_PRELOAD);
/** Postfix's own default destination concurrency (postern runs on its defaults: mta.max_connections_per_host). */
const POSTFIX_CONCURRENCY = 20;
const html = `<html><body><p>Hello, this is a benchmark message.</p>${"<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>".repeat(40)}</body></html>`;
const text = "Hello, this is a benchmark message. ".repeat(20);


interface Probe { sent: number; latencies: number[] }
interface Result { name: string; seconds: number; acceptSeconds: number; cpuMsPerMsg: number | null; p50AcceptMs: number; p99AcceptMs: number; peakRssMb: number;
  memory?: "PSS"; probe: Probe }

/** Starts bench/accept-probe.ts (`http <url> <key>` or `smtp <port>`); `stop` ends it and returns what it measured. */
function startProbe(args: string[]) {
  const proc = Bun.spawn(["bun", new URL("./accept-probe.ts", import.meta.url).pathname, ...args, String(PROBE_MS)], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
  return {
    async stop(): Promise<Probe> {
      void proc.stdin.end();
      const out = await new Response(proc.stdout as ReadableStream<Uint8Array>).text();
      await proc.exited;
      return JSON.parse(out.trim().split("\n").pop()!) as Probe;
    },
  };
}

/** Stops the probe, then waits for the load and the probe's messages to be delivered. */
async function finish(sink: Sink, probe: ReturnType<typeof startProbe>): Promise<Probe> {
  await waitDelivered(sink, N);
  const measured = await probe.stop();
  // BENCH_PROBE_DUMP=<file>: the probe's latencies in send order (one every PROBE_MS), to see when the tail happened.
  if (process.env.BENCH_PROBE_DUMP) await Bun.write(process.env.BENCH_PROBE_DUMP, JSON.stringify(measured.latencies));
  await waitDelivered(sink, N + measured.sent);
  return measured;
}

/** Sends `n` messages with `send` from `concurrency` loops; returns the accept latencies. */
async function load(n: number, concurrency: number, send: (i: number) => Promise<void>): Promise<number[]> {
  const latencies: number[] = [];
  const starts: number[] = [];
  const t0 = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < n) {
      const i = next++;
      const t = performance.now();
      await send(i);
      latencies.push(performance.now() - t);
      starts.push(t - t0);
    }
  }));
  // BENCH_LOAD_DUMP=<file>: [start ms, latency ms] of every load request, to see when the tail happened.
  if (process.env.BENCH_LOAD_DUMP) await Bun.write(process.env.BENCH_LOAD_DUMP, JSON.stringify(starts.map((s, i) => [Math.round(s), Math.round(latencies[i]! * 10) / 10])));
  return latencies;
}

async function waitDelivered(sink: Sink, n: number) { while (sink.received() < n) await Bun.sleep(10); }

async function runPostern(): Promise<Result> {
  const sink = await startSinkProcess();
  const dir = mkdtempSync(join(tmpdir(), "postern-bench-"));
  const workers = process.env.SIGNING_WORKERS ? `signing_workers = ${process.env.SIGNING_WORKERS}\n` : "";
  const file = writeConfig(dir, `messages_per_connection = 100000\n${workers}[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n`);
  // Set up the domain and a sending key, park the queue-depth rows, then hand the data dir to `serve`.
  const key = await prepareDomainKey(file, "bench.example", async (setup) => { if (PARKED) await park(setup, PARKED); });
  // BENCH_PROFILE=<dir>: the server writes a CPU profile (markdown; Chrome's JSON with BENCH_PROFILE_JSON=1)
  // there on exit. It costs memory: measure peak RSS without it.
  const profile = process.env.BENCH_PROFILE ? [process.env.BENCH_PROFILE_JSON ? "--cpu-prof" : "--cpu-prof-md", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  // BENCH_MEMLOG=1: the server prints its memory and event-loop stalls every second (bench/memlog.ts);
  // BENCH_PRELOAD=<file>: the server preloads that file instead (your own instrumentation).
  const memlog = process.env.BENCH_MEMLOG ? ["--preload", new URL("./memlog.ts", import.meta.url).pathname] : process.env.BENCH_PRELOAD ? ["--preload", process.env.BENCH_PRELOAD] : [];
  const command = FROM_SOURCE ? ["bun", ...profile, ...memlog, new URL("../cli/main.ts", import.meta.url).pathname] : [binary()];
  const server = Bun.spawn([...command, "--config", file, "serve"], { stdout: "pipe", stderr: "inherit" });
  const base = await serverUrl(server.stdout as ReadableStream<Uint8Array>);
  const cpu0 = procCpu(server.pid);
  const t0 = performance.now();
  const probe = startProbe(["http", base, key]);
  const latencies = await load(N, CONCURRENT_REQUESTS, async (i) => {
    const res = await fetch(`${base}/v3/mail/send`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ personalizations: [{ to: [{ email: `user${i}@dest${i % 50}.test` }] }], from: { email: "news@bench.example", name: "Bench" },
        subject: `Message ${i}`, content: [{ type: "text/plain", value: text }, { type: "text/html", value: html }] }) });
    if (res.status !== 202) throw new Error(`send ${i}: ${res.status} ${await res.text()}`);
  });
  const acceptSeconds = (performance.now() - t0) / 1000;
  const probed = await finish(sink, probe);
  const seconds = (performance.now() - t0) / 1000;
  const result = { name: "postern", seconds, acceptSeconds, cpuMsPerMsg: ((procCpu(server.pid) - cpu0) * 1000) / (N + probed.sent),
    p50AcceptMs: pct(latencies, 0.5), p99AcceptMs: pct(latencies, 0.99), peakRssMb: procPeakMb(server.pid), probe: probed };
  server.kill("SIGTERM");
  await server.exited;
  sink.stop();
  rmSync(dir, { recursive: true, force: true });
  return result;
}

async function runPostfix(): Promise<Result | null> {
  const sink = await startSinkProcess();
  const dir = mkdtempSync(join(tmpdir(), "postfix-bench-"));
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const pf = startPostfix(dir, { port, relayPort: sink.port, concurrency: POSTFIX_CONCURRENCY });
  if (!pf) { sink.stop(); rmSync(dir, { recursive: true, force: true }); return null; }
  await Bun.sleep(1_500);
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port, pool: true, maxConnections: CONCURRENT_REQUESTS, maxMessages: Infinity, ignoreTLS: true });
  let peak = 0;
  const rss = setInterval(() => { peak = Math.max(peak, pf.rssMb()); }, 200);
  const cpu0 = pf.cpuSeconds();
  const t0 = performance.now();
  const probe = startProbe(["smtp", String(port)]);
  const latencies = await load(N, CONCURRENT_REQUESTS, async (i) => {
    await transport.sendMail({ from: { address: "news@bench.example", name: "Bench" }, to: `user${i}@dest${i % 50}.test`, subject: `Message ${i}`, text, html });
  });
  const acceptSeconds = (performance.now() - t0) / 1000;
  const probed = await finish(sink, probe);
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(rss);
  // Postfix's short-lived processes take their CPU with them: only the live ones are counted.
  const cpu = pf.cpuSeconds() - cpu0;
  transport.close();
  pf.stop();
  sink.stop();
  rmSync(dir, { recursive: true, force: true });
  return { name: "Postfix (no DKIM)", seconds, acceptSeconds, cpuMsPerMsg: cpu > 0 ? (cpu * 1000) / (N + probed.sent) : null,
    p50AcceptMs: pct(latencies, 0.5), p99AcceptMs: pct(latencies, 0.99), peakRssMb: peak, memory: "PSS", probe: probed };
}

/** Delivered msg/s: the load and the probe's messages together. */
const rate = (r: Result) => (N + r.probe.sent) / r.seconds;
/** `openssl speed rsa2048`'s sign time on this machine, once per run: every CPU figure is printed beside it (#41). */
const SIGN_MS = rsaSignMs();
const fmt = (r: Result) => `${r.name.padEnd(20)} ${String(Math.round(rate(r))).padStart(7)} msg/s   ` +
  `${r.cpuMsPerMsg === null ? "      -" : r.cpuMsPerMsg.toFixed(2).padStart(7)} ms CPU/msg` +
  `${r.cpuMsPerMsg !== null && SIGN_MS ? ` (${(r.cpuMsPerMsg / SIGN_MS).toFixed(2)}× openssl's RSA-2048 sign, ${SIGN_MS.toFixed(3)} ms)` : ""}   peak ${r.memory ?? "RSS"} ${r.peakRssMb.toFixed(0)} MB\n` +
  `${"".padEnd(20)} load: accepted ${String(Math.round(N / r.acceptSeconds)).padStart(5)} msg/s, p50 ${r.p50AcceptMs.toFixed(1)} ms, p99 ${r.p99AcceptMs.toFixed(1)} ms   ` +
  `probe (every ${PROBE_MS} ms, ${r.probe.latencies.length}): p50 ${pct(r.probe.latencies, 0.5).toFixed(1)} ms, p99 ${pct(r.probe.latencies, 0.99).toFixed(1)} ms, ` +
  `max ${Math.max(0, ...r.probe.latencies).toFixed(1)} ms\n` + phases(r);

/** The probe's p99 while the load was being accepted and after (one probe every PROBE_MS from the first request). */
function phases(r: Result): string {
  const cut = Math.min(r.probe.latencies.length, Math.round((r.acceptSeconds * 1000) / PROBE_MS));
  const during = r.probe.latencies.slice(0, cut), after = r.probe.latencies.slice(cut);
  const p99 = (xs: number[]) => (xs.length ? `p99 ${pct(xs, 0.99).toFixed(1)} ms (${xs.length})` : "-");
  return `${"".padEnd(20)} probe while the load was accepted: ${p99(during)}; after, while delivering: ${p99(after)}`;
}

const load1 = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
console.log(`${N} messages of about 3 KB, one recipient each${PARKED ? `, ${PARKED} more parked in the queue` : ""}; ` +
  `postern ${FROM_SOURCE ? "from source" : "as the compiled binary"}; load average ${load1()}`);
const postern = await runPostern();
console.log(fmt(postern));
const postfix = flag("--no-postfix") ? null : await runPostfix();
if (postfix) console.log(`${fmt(postfix)}\npostern / Postfix   ${(rate(postern) / rate(postfix)).toFixed(2)}× delivered msg/s`);
else if (!flag("--no-postfix")) console.log("Postfix: not installed (or not root): skipped");
console.log(`load average ${load1()}`);
if (!flag("--no-steps")) {
  const sink = await startSinkProcess();
  console.log("per-step CPU cost (ms per message, in-process):");
  for (const [name, ms] of await measureSteps(html, sink.port)) console.log(`  ${name.padEnd(56)} ${ms.toFixed(3)}`);
  sink.stop();
}
process.exit(0);

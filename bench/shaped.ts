// Delivery shaped like the Internet (issue #29), postern side by side with Postfix 3.7 on its stock
// settings and with Postfix 3.7 + OpenDKIM (#41, bench/opendkim.ts), each with a fresh sink of the
// same kind and the same MX delay, one run each. Each destination's MX is its own loopback address
// (bench/mx-sink.ts: gmail 127.0.0.11, outlook .12, yahoo .13, the small domains .14, the probe
// .15), reached through [mta.routes] by postern and a transport map by Postfix, so both MTAs see
// the same destinations, with up to 20 connections each (postern: max_connections_per_host = 20;
// Postfix: its stock default_destination_concurrency_limit of 20). postern gets its mail over
// SendGrid's /v3/mail/send and DKIM-signs it (RSA-2048 + Ed25519); Postfix over SMTP, unsigned,
// or signed RSA-2048 by OpenDKIM as a milter. Prints delivered msg/s (and the round-trip bound beside
// it with --mx-delay), server CPU ms per message (Postfix's with OpenDKIM's) and its ratio to
// `openssl speed rsa2048`'s sign time, peak memory (postern RSS, Postfix and OpenDKIM PSS), the most
// connections each MX saw open at once, how many messages reached the sink DKIM-signed (a sample
// verified, bench/dkim-check.ts), and postern's ratio over each peer.
//
//   bun bench/shaped.ts [N]           N messages (default 10,000), 45 % gmail.com, 20 % outlook.com,
//                                     10 % yahoo.com, 25 % over 200 small domains, from 20 clients
//   --connections C                   at most C connections per destination for every MTA (default 20, the
//                                     stock limits): a lower bound shows the round trips apart from the CPU
//   --mx-delay MS                     every MX sends each reply MS ms after its command arrived
//                                     (pipelined commands wait together, as behind a distant link)
//   --parked M                        M more recipients parked in postern's queue, due in a day (SendGrid
//                                     send_at); Postfix has no such queue: its run is unchanged
//   --scheduled M                     the depth shape (#41): postern twice, with an empty queue and then after M
//                                     recipients are scheduled through SendGrid's send_at 48 h ahead, 50 a request,
//                                     on the same keys as the live mix; prints accept rate, the live rate's ratio
//                                     to the empty run, and peak RSS (Postfix is not run)
//   --stuck M                         M recipients waiting for gmail.com, whose MX accepts connections and
//                                     never greets, while the N messages go to 20 other domains
//   --throttle-421                    yahoo's MX answers 421 beyond 4 open connections; the run ends
//                                     when all of yahoo's mail is delivered too (Postfix retries what a
//                                     421 deferred after its stock minimal_backoff_time, 300 s)
//   --burst S                         instead of N messages: 32 clients keep requests open for S seconds
//                                     (60 in the issue) while a probe message to its own domain is sent
//                                     every 500 ms and timed to the sink (p50/p95); prints accepted and
//                                     delivered during the burst and the load's accept p99
//   --peers LIST                      which MTAs run, in order (default postern,postfix,postfix-opendkim):
//                                     postern; postfix (3.7, stock, signs nothing); postfix-opendkim
//                                     (3.7 with OpenDKIM as a milter, RSA-2048, `apt-get install opendkim opendkim-tools`)
//   --no-postfix                      postern only (--peers postern)
// BENCH_THREADS=1 adds the server's CPU per thread over the measured part, per message; BENCH_MTA
// adds [mta] lines to its config ("signing_workers = 0": every message's work on one thread, for a
// profile); BENCH_PROFILE=<dir> profiles it (bench/profile-shares.ts reads the .cpuprofile);
// BENCH_MEMLOG=1 or BENCH_PRELOAD=<file> preload into it, BENCH_HEAP_PROFILE=<dir> writes its heap at exit
// by type, BENCH_SERVER_ENV="K=V ..." sets variables for it alone (bench/serve.ts).
// postern runs as the compiled binary; BENCH_SOURCE=1 runs `bun cli/main.ts`. Smoke-run with a
// small N; figures only mean something on a quiet machine.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import nodemailer from "nodemailer";
import { prepareDomainKey, writeConfig } from "../test/helpers/app.ts";
import { startPostfix } from "./postfix.ts";
import { OPENDKIM_MISSING, postfixMilterSettings, startOpenDkim } from "./opendkim.ts";
import { signedLine, verifySamples, type KeyRecords } from "./dkim-check.ts";
import { enqueue, park, pct, procCpu, procPeakMb, startServer, threadCpu, threadSeconds } from "./serve.ts";
import { roundTripBound, rsaSignMs } from "./bounds.ts";
import { PROBE_DOMAIN, mxSpecs, providerMix, routesOf, scheduleOnMix, startMxSink, twentyDomains, type MxSink } from "./shaped-mix.ts";

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const option = (name: string) => { const i = args.indexOf(name); return i >= 0 ? Number(args[i + 1]) : undefined; };
const N = Number(args.find((a, i) => /^\d+$/.test(a) && !/^--/.test(args[i - 1] ?? "")) ?? 10_000);
const DELAY = option("--mx-delay") ?? 0;
const PARKED = option("--parked") ?? 0;
const STUCK = option("--stuck") ?? 0;
const SCHEDULED = option("--scheduled") ?? 0;
/** openssl's RSA-2048 sign time here: CPU per message is reported as a multiple of it (#41). */
const SIGN_MS = rsaSignMs(2);
/** Connections per destination for every MTA (postern's max_connections_per_host, Postfix's concurrency). */
const MAX_CONNECTIONS = option("--connections") ?? 20;
/** The last run's delivered msg/s and server CPU ms per message, for the ratios printed at the end. */
let lastRate = 0;
let lastCpuMs = 0;
const PEERS = flag("--no-postfix") ? ["postern"] : (flag("--peers") ? args[args.indexOf("--peers") + 1] ?? "" : "postern,postfix,postfix-opendkim").split(",");
const unknownPeer = PEERS.find((p) => !["postern", "postfix", "postfix-opendkim"].includes(p));
if (unknownPeer) { console.error(`--peers: unknown peer ${unknownPeer} (postern, postfix, postfix-opendkim)`); process.exit(2); }
const THROTTLE = flag("--throttle-421");
const BURST_S = option("--burst") ?? 0;
const CLIENTS = BURST_S ? 32 : 20;
const PROBE_EVERY_MS = 500;
const FROM_SOURCE = Boolean(process.env.BENCH_SOURCE);
const recipient = STUCK ? twentyDomains : providerMix;
const html = `<html><body><p>Hello, this is a benchmark message.</p>${"<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>".repeat(40)}</body></html>`;
const text = "Hello, this is a benchmark message. ".repeat(20);

type Send = (to: string, subject: string) => Promise<void>;
/** `unsigned`: a peer that must sign delivered mail without a signature; its figures are not comparable. */
interface Run { name: string; lines: string[]; unsigned?: boolean }
/** A peer that did not run says why. */
type Outcome = Run | string;

/** Keeps `clients` requests open until `n` are sent or `until` passes; returns accept latencies. */
async function load(send: Send, clients: number, n: number, until: number): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: clients }, async () => {
    while (next < n && performance.now() < until) {
      const i = next++;
      const t = performance.now();
      await send(recipient(i), `Message ${i}`);
      latencies.push(performance.now() - t);
    }
  }));
  return latencies;
}

async function waitFor(done: () => boolean, maxMs: number): Promise<boolean> {
  const end = performance.now() + maxMs;
  while (!done()) { if (performance.now() > end) return false; await Bun.sleep(20); }
  return true;
}

/**
 * The measured part, the same for both MTAs; `cpu()` is the server's CPU seconds so far, and
 * `roundTrips` what one message costs the MTA's client (postern: 1 with CHUNKING; Postfix: 2, DATA).
 */
async function drive(send: Send, sink: MxSink, cpu: () => number, roundTrips: number): Promise<string[]> {
  const cpu0 = cpu();
  const t0 = performance.now();
  if (BURST_S) return burst(send, sink, cpu0, cpu);
  const latencies = await load(send, CLIENTS, N, Infinity);
  const accepted = { s: (performance.now() - t0) / 1000, delivered: sink.received() };
  const delivered = await waitFor(() => sink.received() >= N, 600_000);
  const seconds = (performance.now() - t0) / 1000;
  lastRate = N / seconds;
  const cpuMs = (lastCpuMs = ((cpu() - cpu0) * 1000) / N);
  const signed = SIGN_MS ? ` (${(cpuMs / SIGN_MS).toFixed(2)}× openssl's RSA-2048 sign, ${SIGN_MS.toFixed(3)} ms)` : "";
  const b = DELAY && !STUCK && !THROTTLE ? roundTripBound(DELAY, MAX_CONNECTIONS, roundTrips) : null;
  const bound = b ? ` (round-trip bound ${Math.round(b.bound)} msg/s: ${((100 * N) / seconds / b.bound).toFixed(0)} % of it)` : "";
  const lines = [`${delivered ? "" : `NOT ALL DELIVERED (${sink.received()} of ${N}) `}${Math.round(N / seconds)} msg/s delivered${bound}, ${cpuMs.toFixed(2)} ms server CPU/msg${signed}, ` +
    `accept p99 ${pct(latencies, 0.99).toFixed(1)} ms`, connections(sink),
    `all accepted after ${accepted.s.toFixed(1)} s, ${accepted.delivered} delivered by then; the rest in ${(seconds - accepted.s).toFixed(1)} s`];
  if (b) {
    lines.push(`the bound: ${b.by}'s ${MAX_CONNECTIONS} connections, ${roundTrips} round trip${roundTrips > 1 ? "s" : ""} of ${DELAY} ms per message, its share of the mix`);
  }
  return lines;
}

async function burst(send: Send, sink: MxSink, cpu0: number, cpu: () => number): Promise<string[]> {
  const t0 = performance.now();
  const until = t0 + BURST_S * 1000;
  const sentAt = new Map<number, number>();
  const probes = (async () => {
    for (let i = 0; performance.now() < until; i++) {
      sentAt.set(i, performance.timeOrigin + performance.now());
      void send(`probe${i}@${PROBE_DOMAIN}`, `probe-${i}`).catch((e) => console.error(`probe ${i}: ${e}`));
      await Bun.sleep(PROBE_EVERY_MS);
    }
  })();
  const latencies = await load(send, CLIENTS, Infinity, until);
  await probes;
  const deliveredInBurst = sink.received() - sink.received("probe");
  const cpuMs = ((cpu() - cpu0) * 1000) / Math.max(1, deliveredInBurst);
  await waitFor(() => sink.probes.size >= sentAt.size, 60_000);
  const probeMs = [...sentAt].map(([i, t]) => (sink.probes.get(i) ?? Infinity) - t);
  return [`${BURST_S} s burst, ${CLIENTS} requests open: ${latencies.length} accepted, ${deliveredInBurst} delivered during it, accept p99 ${pct(latencies, 0.99).toFixed(1)} ms, ` +
    `${cpuMs.toFixed(2)} ms server CPU per delivered message`,
    `probe to the sink (${probeMs.length}, one per ${PROBE_EVERY_MS} ms): p50 ${pct(probeMs, 0.5).toFixed(0)} ms, p95 ${pct(probeMs, 0.95).toFixed(0)} ms, ` +
    `${probeMs.filter((m) => m === Infinity).length} not arrived within 60 s`, connections(sink)];
}

const connections = (sink: MxSink) => `most connections open at once: ${Object.entries(sink.maxConnections).map(([k, v]) => `${k} ${v}`).join(", ")}` +
  (Object.keys(sink.refused).length ? `; refused with 421: ${Object.entries(sink.refused).map(([k, v]) => `${k} ${v}`).join(", ")}` : "") +
  `; opened in all: ${Object.entries(sink.opened).map(([k, v]) => `${k} ${v}`).join(", ")}` +
  `\n  between a message's last reply and the next MAIL on its connection (the MTA's own time per message): ` +
  Object.entries(sink.between).filter(([, g]) => g).map(([k, g]) => `${k} mean ${g!.mean} ms, p50 ${g!.p50}, p95 ${g!.p95}`).join("; ");

/** The server's RSS now, by kind: heap and stacks (anon), mapped files, shared memory (SQLite's WAL index). */
const rssParts = (pid: number) => ["RssAnon", "RssFile", "RssShmem"].map((k) =>
  `${k} ${(Number(new RegExp(`${k}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024).toFixed(0)} MB`).join(", ");

/** Schedules `m` recipients 48 h ahead through SendGrid's send_at, 50 a request from CLIENTS clients, on the live mix's keys. */
async function schedule(base: string, key: string, m: number): Promise<string> {
  const seconds = await scheduleOnMix(base, key, m, { sendAt: Math.floor(Date.now() / 1000) + 48 * 3600, tag: "s", subject: "scheduled", clients: CLIENTS, text });
  return `${m} recipients scheduled 48 h ahead on the live keys at ${Math.round(m / seconds)} recipients/s accepted`;
}

/** The sink's signed count, and its sample verified with the peer's public keys (#41); no keys: a peer that signs nothing. */
async function dkimLines(sink: MxSink, samples: string, keys: KeyRecords): Promise<string[]> {
  const count = signedLine(sink, keys.size > 0);
  return BURST_S || !keys.size ? [count] : [count, await verifySamples(samples, keys)];
}
const unsigned = (lines: string[]) => lines.some((l) => /^(NOT ALL SIGNED|SIGNATURES DO NOT VERIFY)/.test(l));

async function runPostern(scheduled = 0): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), "postern-shaped-"));
  const samples = join(dir, "samples");
  mkdirSync(samples);
  const sink = await startMxSink(mxSpecs({ delayMs: DELAY, stuck: STUCK > 0, throttle: THROTTLE }), samples);
  const keys: KeyRecords = new Map();
  const routes = routesOf(sink).map(([d, hop]) => `"${d}" = "${hop}"`).join("\n");
  // BENCH_MTA: more [mta] lines (e.g. "signing_workers = 0", to profile every message's CPU on one thread).
  // The built-in providers have their own limits (20 connections each): --connections sets theirs too.
  const providers = option("--connections") ? ["gmail", "outlook", "yahoo"].map((p) => `[mta.shaping.providers.${p}]\nconnections = ${MAX_CONNECTIONS}\n`).join("") : "";
  const file = writeConfig(dir, `max_connections_per_host = ${MAX_CONNECTIONS}\n${process.env.BENCH_MTA ?? ""}\n[mta.routes]\n${routes}\n${providers}`);
  const key = await prepareDomainKey(file, "bench.example", async (setup) => {
    if (PARKED) await park(setup, PARKED);
    if (STUCK) await enqueue(setup, STUCK, { domain: "bench.example", dueInMs: 0, to: (i) => `s${i}@gmail.com`, label: "stuck" });
    for (const r of await setup.domains.records("bench.example")) if (r.purpose === "dkim") keys.set(r.name.toLowerCase(), r.value);
  });
  const server = await startServer(file, FROM_SOURCE);
  const pre = scheduled ? [`${await schedule(server.base, key, scheduled)}; peak RSS after accepting them ${procPeakMb(server.pid).toFixed(0)} MB, now ${rssParts(server.pid)}`] : [];
  const send: Send = async (to, subject) => {
    const res = await fetch(`${server.base}/v3/mail/send`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ personalizations: [{ to: [{ email: to }] }], from: { email: "news@bench.example", name: "Bench" }, subject,
        content: [{ type: "text/plain", value: text }, { type: "text/html", value: html }] }) });
    if (res.status !== 202) throw new Error(`send: ${res.status} ${await res.text()}`);
  };
  const threads0 = threadSeconds(server.pid);
  const lines = [...pre, ...await drive(send, sink, () => procCpu(server.pid), 1)];
  lines.push(`peak RSS ${procPeakMb(server.pid).toFixed(0)} MB`, ...await dkimLines(sink, samples, keys));
  // The measured part only (the start and its warm-up left out), per message when N messages were sent.
  if (process.env.BENCH_THREADS) lines.push(...threadCpu(server.pid, threads0, BURST_S ? undefined : N));
  await server.stop();
  sink.stop();
  rmSync(dir, { recursive: true, force: true });
  return { name: scheduled ? `postern, ${scheduled} scheduled on the same keys` : "postern", lines, unsigned: unsigned(lines) };
}

/** Postfix 3.7 on its stock settings; with `dkim`, OpenDKIM signs as its milter (bench/opendkim.ts). */
async function runPostfix(dkim: boolean): Promise<Outcome> {
  const dir = mkdtempSync(join(tmpdir(), "postfix-shaped-"));
  const samples = join(dir, "samples");
  mkdirSync(samples);
  const sink = await startMxSink(mxSpecs({ delayMs: DELAY, stuck: STUCK > 0, throttle: THROTTLE }), samples);
  const cleanUp = () => { sink.stop(); rmSync(dir, { recursive: true, force: true }); };
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const transport = join(dir, "transport");
  writeFileSync(transport, routesOf(sink).map(([d, hop]) => { const [h, p] = hop.split(":"); return `${d} smtp:[${h}]:${p}\n`; }).join(""));
  const milter = dkim ? await startOpenDkim(dir, { domain: "bench.example", selector: "bench", port: port + 1 }) : null;
  if (dkim && !milter) { cleanUp(); return OPENDKIM_MISSING; }
  const extra = { transport_maps: `texthash:${transport}`, ...(milter ? postfixMilterSettings(milter) : {}) };
  const pf = startPostfix(dir, { port, relayPort: sink.ports.get("small")!, concurrency: MAX_CONNECTIONS, extra });
  if (!pf) { await milter?.stop(); cleanUp(); return "Postfix: not installed (or not root): skipped"; }
  await Bun.sleep(1_500);
  const smtp = nodemailer.createTransport({ host: "127.0.0.1", port, pool: true, maxConnections: CLIENTS + 4, maxMessages: Infinity, ignoreTLS: true });
  let peak = 0;
  const rss = setInterval(() => { peak = Math.max(peak, pf.rssMb() + (milter?.pssMb() ?? 0)); }, 200);
  // A refused message ends the run: Postfix, OpenDKIM and the sink (root's daemons among them) stop all the same.
  try {
    if (STUCK) {
      // 1,000 recipients a message: Postfix splits them per destination itself.
      for (let b = 0; b < STUCK; b += 1000) {
        await smtp.sendMail({ from: "news@bench.example", to: Array.from({ length: Math.min(1000, STUCK - b) }, (_, i) => `s${b + i}@gmail.com`), subject: "stuck", text: "stuck" });
      }
    }
    const send: Send = async (to, subject) => { await smtp.sendMail({ from: { address: "news@bench.example", name: "Bench" }, to, subject, text, html }); };
    // Postfix's short-lived processes take their CPU with them: only the live ones are counted.
    // OpenDKIM is one long-lived process: all its CPU is.
    const lines = await drive(send, sink, () => pf.cpuSeconds() + (milter?.cpuSeconds() ?? 0), 2);
    lines.push(`peak PSS ${peak.toFixed(0)} MB${milter ? ` (Postfix's processes and OpenDKIM's together; OpenDKIM now ${milter.pssMb().toFixed(0)} MB)` : ""}`);
    lines.push(...await dkimLines(sink, samples, new Map(milter ? [milter.record] : [])));
    return { name: dkim ? "Postfix 3.7 + OpenDKIM (milter, RSA-2048, Mode s)" : "Postfix 3.7 (stock, no DKIM)", lines, unsigned: unsigned(lines) };
  } finally {
    clearInterval(rss);
    smtp.close();
    pf.stop();
    await milter?.stop();
    cleanUp();
  }
}

const loadavg = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const what = BURST_S ? `${BURST_S} s burst` : `${N} messages`;
console.log(`${what}, ${STUCK ? `to 20 domains while ${STUCK} wait for a gmail.com MX that never greets` : "provider-shaped (45/20/10/25 %)"}` +
  `${DELAY ? `, MX replies ${DELAY} ms late` : ""}${PARKED ? `, ${PARKED} parked (postern)` : ""}${THROTTLE ? ", yahoo 421 beyond 4 connections" : ""}; load average ${loadavg()}`);
const peerRun: Record<string, () => Promise<Outcome>> = { postern: () => runPostern(), postfix: () => runPostfix(false), "postfix-opendkim": () => runPostfix(true) };
const runs = SCHEDULED ? [() => runPostern(0), () => runPostern(SCHEDULED)] : PEERS.map((p) => peerRun[p]!);
const rates: number[] = [];
const measured: { name: string; rate: number; cpuMs: number; unsigned?: boolean }[] = [];
for (const run of runs) {
  lastRate = lastCpuMs = 0;
  const r = await run();
  rates.push(lastRate);
  if (typeof r === "string") { console.log(r); continue; }
  measured.push({ name: r.name, rate: lastRate, cpuMs: lastCpuMs, unsigned: r.unsigned });
  console.log(`${r.name}\n${r.lines.map((l) => `  ${l}`).join("\n")}`);
}
const postern = measured.find((m) => m.name === "postern");
if (postern && !BURST_S && !SCHEDULED) {
  for (const m of measured.filter((x) => x !== postern)) {
    const notComparable = postern.unsigned || m.unsigned ? " (NOT COMPARABLE: mail that should be signed arrived unsigned, see above)" : "";
    console.log(`postern over ${m.name}: ${(postern.rate / m.rate).toFixed(2)}× its msg/s; it spends ${(m.cpuMs / postern.cpuMs).toFixed(2)}× postern's server CPU per message${notComparable}`);
  }
}
if (SCHEDULED) console.log(`live rate with ${SCHEDULED} scheduled on the same keys: ${((rates[1] ?? 0) / (rates[0] ?? 1)).toFixed(2)} of the empty queue's (issue #41: >= 0.9)`);
console.log(`load average ${loadavg()}`);
process.exit(0);

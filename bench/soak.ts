// Soak: steady sending over SendGrid's API for minutes, with short retention windows, to a local
// counting sink (its own process), against `postern serve` in its own process. Every few seconds
// it prints the server's RSS, the database and WAL sizes, and the bytes the server wrote to disk
// per message delivered (/proc/PID/io write_bytes: what reached the block layer, so the data dir
// must be on a real disk, not tmpfs). Hours of retention compressed into minutes: with windows of
// a minute, every number must level off once the first window has passed.
//
//   bun bench/soak.ts                       200 msg/s for 8 minutes, 60 s windows
//   SOAK_RATE=50 SOAK_SECONDS=120 SOAK_RETENTION=30s bun bench/soak.ts
//   SOAK_DIR=/var/tmp/x BENCH_BINARY=./postern bun bench/soak.ts    (default: from source)
//   SOAK_DIR=/var/tmp/x BENCH_PRELOAD=./count.ts bun bench/soak.ts   (your instrumentation in the server)
//
// It prints figures; on a loaded machine they are not measurements (docs/performance.md).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { prepareDomainKey, writeConfig } from "../test/helpers/app.ts";
import { startSinkProcess } from "./sink-process.ts";
import { serverUrl } from "./serve.ts";

const RATE = Number(process.env.SOAK_RATE ?? 200);
const SECONDS = Number(process.env.SOAK_SECONDS ?? 480);
const RETENTION = process.env.SOAK_RETENTION ?? "60s";
const SAMPLE_S = Number(process.env.SOAK_SAMPLE ?? 10);
const IN_FLIGHT = 64;
const html = `<html><body><p>Hello, this is a soak message.</p>${"<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>".repeat(40)}</body></html>`;
const text = "Hello, this is a soak message. ".repeat(20);

const MB = 1024 * 1024;
const fmtMb = (b: number) => (b / MB).toFixed(1);
const procIo = (pid: number) => Number(/^write_bytes:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/io`, "utf8"))?.[1] ?? 0);
/** Bytes the server dirtied and then truncated away before they reached the disk (the outcome journal's). */
const procCancelled = (pid: number) => Number(/^cancelled_write_bytes:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/io`, "utf8"))?.[1] ?? 0);
const procRss = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
/** Bytes of the data dir's files ending in `suffix`. */
const sizeOf = (dir: string, suffix: string) => readdirSync(dir).filter((f) => f.endsWith(suffix)).reduce((n, f) => n + statSync(join(dir, f)).size, 0);

async function setUp(dir: string, sinkPort: number) {
  const file = writeConfig(dir, `messages_per_connection = 100000\n[mta.routes]\n"*" = "127.0.0.1:${sinkPort}"\n` +
    `[retention]\nevents = "${RETENTION}"\nmessages = "${RETENTION}"\ninbound = "${RETENTION}"\n`);
  return { file, key: await prepareDomainKey(file, "soak.example") };
}

/** Sends at RATE a second (open loop, at most IN_FLIGHT at once) until `until`; counts answers. */
function sender(base: string, key: string, until: number) {
  const state = { sent: 0, accepted: 0, failed: 0, inFlight: 0 };
  const t0 = performance.now();
  const one = async (i: number) => {
    state.inFlight++;
    try {
      const res = await fetch(`${base}/v3/mail/send`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ personalizations: [{ to: [{ email: `user${i}@dest${i % 50}.test` }] }], from: { email: "news@soak.example" },
          subject: `Soak ${i}`, content: [{ type: "text/plain", value: text }, { type: "text/html", value: html }] }) });
      if (res.status === 202) state.accepted++; else { state.failed++; if (state.failed <= 5) console.error(`send ${i}: ${res.status} ${await res.text()}`); }
    } catch (e) { state.failed++; if (state.failed <= 5) console.error(`send ${i}: ${(e as Error).message}`); }
    state.inFlight--;
  };
  const done = (async () => {
    while (performance.now() < until) {
      const due = Math.floor(((performance.now() - t0) / 1000) * RATE);
      while (state.sent < due && state.inFlight < IN_FLIGHT) void one(state.sent++);
      await Bun.sleep(5);
    }
    while (state.inFlight > 0) await Bun.sleep(10);
  })();
  return { state, done };
}

const { port, received, stop: stopSink } = await startSinkProcess();
const dir = process.env.SOAK_DIR ?? mkdtempSync(join(tmpdir(), "postern-soak-"));
const { file, key } = await setUp(dir, port);
// BENCH_PRELOAD=<file>: the server (from source) preloads that file (your own instrumentation).
const preload = process.env.BENCH_PRELOAD ? ["--preload", process.env.BENCH_PRELOAD] : [];
const command = process.env.BENCH_BINARY ? [process.env.BENCH_BINARY] : ["bun", ...preload, new URL("../cli/main.ts", import.meta.url).pathname];
const server = Bun.spawn([...command, "--config", file, "serve"], { stdout: "pipe", stderr: "inherit" });
const base = await serverUrl(server.stdout as ReadableStream<Uint8Array>);
const dataDir = join(dir, "postern-data");
console.log(`soak: ${RATE} msg/s for ${SECONDS} s, retention ${RETENTION}, data in ${dataDir}, server pid ${server.pid}`);
console.log("    t   sent  delivered  failed   rss MB   db MB  wal MB  written MB  KB/msg (interval)");

const io0 = procIo(server.pid);
const cancelled0 = procCancelled(server.pid);
let last = { io: io0, delivered: 0 };
let maxWal = 0;
const rows: { db: number; rss: number }[] = [];
const t0 = performance.now();
const load = sender(base, key, t0 + SECONDS * 1000);
const sample = () => {
  const io = procIo(server.pid), delivered = received(), wal = sizeOf(dataDir, ".sqlite-wal"), db = sizeOf(dataDir, ".sqlite");
  maxWal = Math.max(maxWal, wal);
  const perMsg = delivered > last.delivered ? (io - last.io) / (delivered - last.delivered) / 1024 : 0;
  rows.push({ db, rss: procRss(server.pid) });
  console.log(`${((performance.now() - t0) / 1000).toFixed(0).padStart(5)} ${String(load.state.sent).padStart(6)} ${String(delivered).padStart(10)} ` +
    `${String(load.state.failed).padStart(7)} ${fmtMb(rows.at(-1)!.rss).padStart(8)} ${fmtMb(db).padStart(7)} ${fmtMb(wal).padStart(7)} ` +
    `${fmtMb(io - io0).padStart(11)} ${perMsg.toFixed(1).padStart(7)}`);
  last = { io, delivered };
};
const timer = setInterval(sample, SAMPLE_S * 1000);
await load.done;
// Every accepted message must reach the sink.
const deadline = performance.now() + 120_000;
while (received() < load.state.accepted && performance.now() < deadline) await Bun.sleep(100);
clearInterval(timer);
sample();
const total = procIo(server.pid) - io0;
const third = Math.max(1, Math.floor(rows.length / 3));
const growth = (k: "db" | "rss") => fmtMb(rows.at(-1)![k] - rows.at(-third)![k]);
console.log(`\naccepted ${load.state.accepted}, failed ${load.state.failed}, delivered ${received()}` +
  `${received() >= load.state.accepted ? "" : " (NOT ALL DELIVERED)"}`);
// Per message delivered, and per message accepted: the two differ when delivery fell behind (the
// first then counts every accept over fewer messages, the second leaves out deliveries still to come).
console.log(`written ${fmtMb(total)} MB, ${(total / Math.max(1, received()) / 1024).toFixed(1)} KB per message delivered, ` +
  `${(total / Math.max(1, load.state.accepted) / 1024).toFixed(1)} KB per message accepted; largest WAL ${fmtMb(maxWal)} MB`);
console.log(`of which cancelled before reaching the disk (cancelled_write_bytes): ${fmtMb(procCancelled(server.pid) - cancelled0)} MB`);
console.log(`growth over the last third of the samples: db ${growth("db")} MB, rss ${growth("rss")} MB (level: about 0)`);
server.kill("SIGTERM");
await server.exited;
stopSink();
if (!process.env.SOAK_DIR) rmSync(dir, { recursive: true, force: true });
process.exit(received() >= load.state.accepted && load.state.failed === 0 ? 0 : 1);

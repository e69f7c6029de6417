// What the MTA benches share: the `postern serve` process (the compiled binary or from source), its
// CPU and peak memory from /proc, percentiles, and recipients written straight into the queue
// (parked for later, or due now) without going through an API.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { createApp } from "../src/app.ts";

export const procCpu = (pid: number, file = `/proc/${pid}/stat`) => { const f = readFileSync(file, "utf8").split(") ")[1]!.split(" "); return (Number(f[11]) + Number(f[12])) / 100; };
export const procPeakMb = (pid: number) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
/** The server's CPU seconds so far by thread name (main, signing worker, JIT, GC helpers...). */
export function threadSeconds(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      byName.set(name, (byName.get(name) ?? 0) + procCpu(Number(tid), `/proc/${pid}/task/${tid}/stat`));
    } catch { /* the thread ended */ }
  }
  return byName;
}
/** BENCH_THREADS=1: the server's CPU seconds by thread name, since `since` (a threadSeconds snapshot) when given. */
export function threadCpu(pid: number, since?: Map<string, number>, perMessage?: number): string[] {
  const now = [...threadSeconds(pid)].map(([name, s]) => [name, s - (since?.get(name) ?? 0)] as const);
  return now.sort((a, b) => b[1] - a[1]).filter(([, s]) => s > 0.005)
    .map(([name, s]) => `  thread ${name}: ${s.toFixed(2)} s${perMessage ? ` (${((s * 1000) / perMessage).toFixed(3)} ms/msg)` : ""}`);
}
export const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * p)] ?? 0;

/**
 * The server runs as the compiled binary, what install.sh installs (built once per run into a
 * temporary directory; BENCH_BINARY=<file> runs that one instead). From source (`bun cli/main.ts`)
 * with BENCH_SOURCE=1, and always with BENCH_PROFILE, BENCH_MEMLOG or BENCH_PRELOAD.
 */
let built: string | null = null;
export function binary(): string {
  if (process.env.BENCH_BINARY) return process.env.BENCH_BINARY;
  if (built) return built;
  const out = join(mkdtempSync(join(tmpdir(), "postern-bench-bin-")), "postern");
  const build = Bun.spawnSync(["bun", "run", "build.ts", out], { cwd: new URL("..", import.meta.url).pathname, stdout: "ignore", stderr: "inherit" });
  if (build.exitCode !== 0) throw new Error("bun run build.ts failed");
  process.on("exit", () => rmSync(dirname(out), { recursive: true, force: true }));
  return (built = out);
}

export async function serverUrl(stdout: ReadableStream<Uint8Array>): Promise<string> {
  let buf = "";
  const reader = stdout.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`serve exited: ${buf}`);
    buf += new TextDecoder().decode(value);
    const m = /https?:\/\/[\d.]+:\d+|(?:listening|http)[^\n]*?([\d.]+:\d+)/i.exec(buf);
    if (m) { reader.releaseLock(); return m[0].startsWith("http") ? m[0] : `http://${m[1]}`; }
  }
}

/** `postern serve` on `file`: the binary, or `bun cli/main.ts` when `fromSource`. */
export async function startServer(file: string, fromSource: boolean): Promise<{ base: string; pid: number; stop(): Promise<void> }> {
  // BENCH_PROFILE=<dir>: from source, the server writes a CPU profile there on exit, as markdown and
  // as a .cpuprofile (bench/profile-shares.ts counts its samples after the warm-up).
  const profile = process.env.BENCH_PROFILE ? ["--cpu-prof", "--cpu-prof-md", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  // BENCH_HEAP_PROFILE=<dir>: from source, a sampled heap profile by allocation site on exit (markdown and .heapprofile).
  if (process.env.BENCH_HEAP_PROFILE) profile.push("--heap-prof", "--heap-prof-md", `--heap-prof-dir=${process.env.BENCH_HEAP_PROFILE}`, "--heap-prof-interval=32768");
  // BENCH_MEMLOG=1: the server prints its memory every second (bench/memlog.ts); BENCH_PRELOAD=<file>: preloads that instead.
  const memlog = process.env.BENCH_MEMLOG ? ["--preload", new URL("./memlog.ts", import.meta.url).pathname] : process.env.BENCH_PRELOAD ? ["--preload", process.env.BENCH_PRELOAD] : [];
  const command = fromSource || profile.length || memlog.length ? ["bun", ...profile, ...memlog, new URL("../cli/main.ts", import.meta.url).pathname] : [binary()];
  // BENCH_SERVER_ENV="K=V K2=V2": variables for the server only (JavaScriptCore's BUN_JSC_* options,
  // BUN_JSC_logGC=1), not for the bench's own load clients and sink.
  const extraEnv = Object.fromEntries((process.env.BENCH_SERVER_ENV ?? "").split(/\s+/).filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]));
  const server = Bun.spawn([...command, "--config", file, "serve"], { stdout: "pipe", stderr: "inherit", env: { ...process.env, ...extraEnv } });
  const base = await serverUrl(server.stdout as ReadableStream<Uint8Array>);
  return { base, pid: server.pid, async stop() { server.kill("SIGTERM"); await server.exited; } };
}

type App = Awaited<ReturnType<typeof createApp>>;

/**
 * Writes `count` recipients of `domain`'s mail into the queue, 10,000 per message, due in
 * `dueInMs` (a day: parked; 0: due now). `to(i)` gives the i-th recipient's address.
 */
export async function enqueue(app: App, count: number, opts: { domain: string; dueInMs: number; to: (i: number) => string; label: string }) {
  const zone = app.store.zone(app.store.zoneNames()[0]!);
  const now = Date.now();
  for (let b = 0; b < count; b += 10_000) {
    const id = `${opts.label}${b}`;
    await zone.createSend({ messages: [{ id, sendId: id, domain: opts.domain, messageIdHeader: `<${id}@${opts.domain}>`, from: `news@${opts.domain}`,
      subject: opts.label, content: null, raw: new TextEncoder().encode(`Subject: ${opts.label}\r\n\r\n${opts.label}\r\n`), tags: [], metadata: {}, callbackUrl: null,
      source: "bench", isTest: false, size: 30, createdAt: now }],
    recipients: Array.from({ length: Math.min(10_000, count - b) }, (_, i) => {
      const email = opts.to(b + i);
      return { id: `${id}r${i}`, messageId: id, email, rcptDomain: email.split("@")[1]!, kind: "to" as const, status: "queued" as const, attempts: 0,
        nextAttemptAt: now + opts.dueInMs, firstAttemptAt: null, expiresAt: now + 5 * 86_400_000, lastCode: null, lastResponse: null, mx: null, updatedAt: now };
    }), attachments: [], events: [] });
  }
}

/** Queues `count` recipients due in a day (the queue-depth run: they must not slow the due ones). */
export const park = (app: App, count: number) =>
  enqueue(app, count, { domain: "bench.example", dueInMs: 86_400_000, to: (i) => `p${i}@parked${i % 100}.test`, label: "parked" });

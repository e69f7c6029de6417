// Preloaded into the benchmarked server with BENCH_MEMLOG=1 (bun bench/mta.ts): every second, on
// stderr, its memory (RSS anonymous and file-backed, the JavaScript heap, the memory the heap
// accounts for outside itself: strings, buffers) and the event loop's stalls over 10 ms, each split
// by the main thread's scheduler statistics into time on the CPU (our own long turns), time waiting
// for a CPU (other processes: the machine is busy) and time blocked (fsync, disk).
import { heapStats } from "bun:jsc";
import { openSync, readFileSync, readSync } from "node:fs";

const TICK_MS = 2;
const mb = (key: string, status: string) => Math.round(Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024);
const schedstat = openSync(`/proc/self/task/${process.pid}/schedstat`, "r");
const buf = Buffer.alloc(128);
/** [ms on the CPU, ms waiting for one] of the main thread so far. */
const sched = (): [number, number] => { const n = readSync(schedstat, buf, 0, buf.length, 0); const [run, wait] = buf.toString("latin1", 0, n).split(" "); return [Number(run) / 1e6, Number(wait) / 1e6]; };

let stalls = { count: 0, cpu: 0, waiting: 0, blocked: 0, worst: 0 };
let last = performance.now();
let [lastRun, lastWait] = sched();
setInterval(() => {
  const t = performance.now();
  const [run, wait] = sched();
  if (t - last - TICK_MS > 10) {
    const cpu = run - lastRun, waiting = wait - lastWait;
    stalls = { count: stalls.count + 1, cpu: stalls.cpu + cpu, waiting: stalls.waiting + waiting,
      blocked: stalls.blocked + Math.max(0, t - last - cpu - waiting), worst: Math.max(stalls.worst, t - last - TICK_MS) };
  }
  [last, lastRun, lastWait] = [t, run, wait];
}, TICK_MS).unref();

setInterval(() => {
  const s = readFileSync("/proc/self/status", "utf8");
  const h = heapStats();
  process.stderr.write(`memory: rss ${mb("VmRSS", s)} MB (anon ${mb("RssAnon", s)}, file ${mb("RssFile", s)}, peak ${mb("VmHWM", s)}), ` +
    `heap ${(h.heapSize / 1e6).toFixed(1)} of ${(h.heapCapacity / 1e6).toFixed(1)} MB, extra ${(h.extraMemorySize / 1e6).toFixed(1)} MB, ${h.objectCount} objects; ` +
    `loop stalls over 10 ms: ${stalls.count} (worst ${stalls.worst.toFixed(0)} ms), ${stalls.cpu.toFixed(0)} ms on the CPU, ` +
    `${stalls.waiting.toFixed(0)} ms waiting for one, ${stalls.blocked.toFixed(0)} ms blocked\n`);
  stalls = { count: 0, cpu: 0, waiting: 0, blocked: 0, worst: 0 };
}, 1_000).unref();

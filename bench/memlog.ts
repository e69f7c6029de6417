// Preloaded into the benchmarked server with BENCH_MEMLOG=1 (bun bench/mta.ts): every second, its
// memory on stderr: RSS (anonymous and file-backed), the JavaScript heap, the memory the heap
// accounts for outside itself (strings, buffers) and the objects alive, to see what grows under load.
import { heapStats } from "bun:jsc";
import { readFileSync } from "node:fs";

const mb = (key: string, status: string) => Math.round(Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024);
setInterval(() => {
  const s = readFileSync("/proc/self/status", "utf8");
  const h = heapStats();
  process.stderr.write(`memory: rss ${mb("VmRSS", s)} MB (anon ${mb("RssAnon", s)}, file ${mb("RssFile", s)}, peak ${mb("VmHWM", s)}), ` +
    `heap ${(h.heapSize / 1e6).toFixed(1)} of ${(h.heapCapacity / 1e6).toFixed(1)} MB, extra ${(h.extraMemorySize / 1e6).toFixed(1)} MB, ${h.objectCount} objects\n`);
}, 1_000).unref();

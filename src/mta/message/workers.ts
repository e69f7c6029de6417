// A MessageBuilder backed by a pool of worker threads, started on first use. Each message goes to
// the same worker (by its id), so a message shared by many recipients is composed and signed
// once. A worker that dies or stalls is replaced and its jobs fail (the queue retries them); the
// main thread builds only when workers never worked at all, and never a message that broke one.
import type { DkimKey } from "../../core/model.ts";
import type { Logger } from "../../log.ts";
import type { MessageBuilder } from "./builder.ts";
import type { BuildJob, WorkerInit, WorkerReply } from "./worker-protocol.ts";
import { createRecentCache } from "../../core/recent-cache.ts";

const JOB_TIMEOUT_MS = 60_000;
/** Jobs queued per worker at most: enough to keep it busy, few enough to keep built bytes out of memory. */
const JOBS_PER_WORKER = 8;
// In the compiled binary (build.ts lists the worker as an entrypoint) workers are addressed by
// their path at build time; from source, next to this file.
const WORKER_PATH = import.meta.url.includes("$bunfs") ? "./src/mta/message/sign-worker.ts" : new URL("./sign-worker.ts", import.meta.url).href;

export interface WorkerBuilderOptions {
  workers: number;
  init: Omit<WorkerInit, "type">;
  keysFor: (domain: string) => Promise<DkimKey[]>;
  now: () => number;
  log: Logger;
  /** Builds on the main thread when workers keep failing before their first result. */
  fallback: MessageBuilder;
  /** The worker's module (default: sign-worker.ts next to this file, or its path in the binary). */
  workerPath?: string;
  /** True while the main thread has time to spare (no callers waiting): see OVERFLOW_AT. */
  mayOverflow?: () => boolean;
  /** The base of a domain's tracking links, asked on the main thread and sent with each job. */
  linkBaseFor?: (domain: string) => Promise<string>;
}

/**
 * Jobs queued at the workers beyond which, while `mayOverflow()`, the next job is built on the
 * main thread instead. The workers run below the main thread's priority (sign-worker.ts), so on
 * cores shared with other busy processes they get a fraction of a core: in a soak at 200 msg/s
 * with the load client and the sink on the same 2 cores, delivery ran at 88-96 msg/s while the
 * main thread idled between requests, and caught up only once the load stopped.
 */
export const OVERFLOW_AT = 4;

/**
 * Worker failures in a row, before any worker has given a result, after which signing moves to the
 * main thread (workers that cannot start at all). Once a worker has worked, a failing one is only
 * replaced: a message that kills or stalls its worker must not move every build, and itself, onto
 * the thread that serves the API and reads the SMTP replies.
 */
const FAILURES_BEFORE_FALLBACK = 3;
/** Messages whose job a failed worker took down, remembered so they are never built on the main thread. */
const SUSPECTS_KEPT = 1_000;

interface Pending { resolve: (b: Uint8Array) => void; reject: (e: Error) => void; slot: number; timer: ReturnType<typeof setTimeout>; messageId: string }

const hashOf = (s: string) => { let h = 0; for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0; return Math.abs(h); };

export function createWorkerBuilder(opts: WorkerBuilderOptions): MessageBuilder {
  const pending = new Map<number, Pending>();
  const workers: (Worker | null)[] = Array.from({ length: opts.workers }, () => null);
  // The keys each worker holds, per domain: resent only when keysFor hands out another array.
  const keysSent: Map<string, DkimKey[]>[] = Array.from({ length: opts.workers }, () => new Map());
  let nextJob = 1;
  let running = 0;
  let failuresInARow = 0;
  let everWorked = false;
  const suspects = createRecentCache<string, true>(SUSPECTS_KEPT);
  const waiting: (() => void)[] = [];
  const limit = opts.workers * JOBS_PER_WORKER;

  function settle(jobId: number, bytes?: Uint8Array, error?: string) {
    const p = pending.get(jobId);
    if (!p) return;
    if (bytes) { failuresInARow = 0; everWorked = true; }
    pending.delete(jobId);
    clearTimeout(p.timer);
    if (bytes) p.resolve(bytes); else p.reject(new Error(error ?? "signing worker failed"));
  }

  /** Fails the jobs of a broken worker and lets the next job start a new one. */
  function replace(slot: number, why: string) {
    failuresInARow++;
    opts.log.error("signing worker replaced", { slot, why });
    workers[slot]?.terminate();
    workers[slot] = null;
    keysSent[slot]!.clear();
    for (const [jobId, p] of pending) {
      if (p.slot !== slot) continue;
      suspects.set(p.messageId, true);
      settle(jobId, undefined, `signing worker failed: ${why}`);
    }
  }

  function workerAt(slot: number): Worker {
    const existing = workers[slot];
    if (existing) return existing;
    // smol: a smaller heap, collected more often; the worker keeps nothing but the message at hand.
    const w = new Worker(opts.workerPath ?? WORKER_PATH, { smol: true } as WorkerOptions);
    w.onmessage = (ev: MessageEvent<WorkerReply>) => settle(ev.data.jobId, ev.data.bytes, ev.data.error);
    w.onerror = (e) => { if (workers[slot] === w) replace(slot, String((e as ErrorEvent).message ?? e)); };
    w.addEventListener("close", () => { if (workers[slot] === w) replace(slot, "exited"); });
    w.postMessage({ type: "init", ...opts.init } satisfies WorkerInit);
    workers[slot] = w;
    return w;
  }

  return {
    async build(message, attachments, recipientId) {
      if (!everWorked && failuresInARow >= FAILURES_BEFORE_FALLBACK) {
        if (failuresInARow === FAILURES_BEFORE_FALLBACK) { failuresInARow++; opts.log.error("signing workers keep failing; signing on the main thread"); }
        return opts.fallback.build(message, attachments, recipientId);
      }
      if (running >= OVERFLOW_AT && opts.mayOverflow?.() && !suspects.get(message.id)) return opts.fallback.build(message, attachments, recipientId);
      const keys = await opts.keysFor(message.domain);
      const linkBase = await opts.linkBaseFor?.(message.domain);
      while (running >= limit) await new Promise<void>((r) => waiting.push(r));
      running++;
      const jobId = nextJob++;
      const slot = hashOf(message.id) % workers.length;
      const isKnown = keysSent[slot]!.get(message.domain) === keys;
      const job: BuildJob = { type: "build", jobId, message, attachments, recipientId, now: opts.now(), linkBase, ...(isKnown ? {} : { keys }) };
      try {
        return await new Promise<Uint8Array>((resolve, reject) => {
          const worker = workerAt(slot);
          worker.postMessage(job);
          keysSent[slot]!.set(message.domain, keys);
          // Registered only once the job is with its worker: a failed post leaves no timer behind.
          const timer = setTimeout(() => replace(slot, `job ${jobId} took longer than ${JOB_TIMEOUT_MS} ms`), JOB_TIMEOUT_MS);
          pending.set(jobId, { resolve, reject, slot, timer, messageId: message.id });
        });
      } finally {
        running--;
        waiting.shift()?.();
      }
    },
    close() {
      opts.fallback.close();
      for (const [i, w] of workers.entries()) { w?.terminate(); workers[i] = null; }
      for (const jobId of [...pending.keys()]) settle(jobId, undefined, "builder closed");
    },
  };
}

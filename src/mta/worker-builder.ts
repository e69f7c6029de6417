// A MessageBuilder backed by a pool of worker threads. Each message goes to the same worker
// (by its id), so a message shared by many recipients is composed and signed once.
import type { DkimKey } from "../core/model.ts";
import type { Logger } from "../log.ts";
import type { MessageBuilder } from "./builder.ts";
import type { BuildJob, WorkerInit, WorkerReply } from "./worker-protocol.ts";

export interface WorkerBuilderOptions {
  workers: number;
  init: Omit<WorkerInit, "type">;
  keysFor: (domain: string) => Promise<DkimKey[]>;
  log: Logger;
}

const hashOf = (s: string) => { let h = 0; for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0; return Math.abs(h); };

/** Starts the workers; throws when a worker cannot be started (the caller builds locally then). */
export function createWorkerBuilder(opts: WorkerBuilderOptions): MessageBuilder {
  const pending = new Map<number, { resolve: (b: Uint8Array) => void; reject: (e: Error) => void }>();
  let nextJob = 1;
  const workers = Array.from({ length: opts.workers }, () => {
    const w = new Worker(new URL("./sign-worker.ts", import.meta.url).href);
    w.onmessage = (ev: MessageEvent<WorkerReply>) => {
      const p = pending.get(ev.data.jobId);
      if (!p) return;
      pending.delete(ev.data.jobId);
      if (ev.data.bytes) p.resolve(ev.data.bytes);
      else p.reject(new Error(ev.data.error ?? "worker failed"));
    };
    w.onerror = (e) => opts.log.error("signing worker error", { error: String((e as ErrorEvent).message ?? e) });
    w.postMessage({ type: "init", ...opts.init } satisfies WorkerInit);
    return w;
  });
  return {
    async build(message, attachments, recipientId) {
      const keys = await opts.keysFor(message.domain);
      const jobId = nextJob++;
      const job: BuildJob = { type: "build", jobId, message, attachments, recipientId, keys };
      return new Promise<Uint8Array>((resolve, reject) => {
        pending.set(jobId, { resolve, reject });
        workers[hashOf(message.id) % workers.length]!.postMessage(job);
      });
    },
    close() {
      for (const w of workers) w.terminate();
      for (const p of pending.values()) p.reject(new Error("builder closed"));
      pending.clear();
    },
  };
}

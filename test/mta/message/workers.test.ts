import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OVERFLOW_AT, createWorkerBuilder } from "../../../src/mta/message/workers.ts";
import { createLogger } from "../../../src/log.ts";
import type { MessageBuilder } from "../../../src/mta/message/builder.ts";
import type { StoredMessage } from "../../../src/core/store-port.ts";

const message = { id: "m1", domain: "a.test" } as StoredMessage;
const fallback: MessageBuilder = { build: async () => new TextEncoder().encode("built locally"), close: () => {} };

describe("signing workers", () => {
  test("workers that cannot start hand the work to the main thread instead of stalling the queue", async () => {
    const builder = createWorkerBuilder({ workers: 1, keysFor: async () => [], now: () => 0, log: createLogger({ level: "silent" }), fallback,
      init: { publicUrl: "http://x", secret: "s", hostname: "h", bounceDomain: "" }, workerPath: "/nonexistent/sign-worker.ts" });
    const outcomes: string[] = [];
    for (let i = 0; i < 5; i++) {
      outcomes.push(await builder.build(message, [], "r").then((b) => new TextDecoder().decode(b), () => "failed"));
    }
    expect(outcomes.slice(-2)).toEqual(["built locally", "built locally"]);
    builder.close();
  });

  test("while the main thread has time, jobs beyond OVERFLOW_AT queued at a slow worker are built here instead of waiting", async () => {
    // A worker that takes its jobs and never answers: a signing thread starved of CPU.
    const dir = mkdtempSync(join(tmpdir(), "postern-slow-worker-"));
    const workerPath = join(dir, "slow-worker.ts");
    writeFileSync(workerPath, "self.onmessage = () => {};\n");
    let mainThreadFree = false;
    const builder = createWorkerBuilder({ workers: 1, keysFor: async () => [], now: () => 0, log: createLogger({ level: "silent" }), fallback,
      init: { publicUrl: "http://x", secret: "s", hostname: "h", bounceDomain: "" }, workerPath, mayOverflow: () => mainThreadFree });
    try {
      const queued = Array.from({ length: OVERFLOW_AT }, (_, i) => builder.build({ ...message, id: `q${i}` }, [], "r").catch(() => "closed"));
      // Callers waiting (the main thread busy): the next job queues at the worker like the others.
      let settled = false;
      const waiting = builder.build({ ...message, id: "busy" }, [], "r").catch(() => "closed").finally(() => { settled = true; });
      await Bun.sleep(50);
      expect(settled).toBe(false);
      // No callers waiting: built on the main thread at once.
      mainThreadFree = true;
      expect(new TextDecoder().decode(await builder.build({ ...message, id: "free" }, [], "r"))).toBe("built locally");
      builder.close();
      await Promise.all([...queued, waiting]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

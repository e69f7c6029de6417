import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OVERFLOW_AT, createWorkerBuilder } from "../../../src/mta/message/workers.ts";
import { createLogger } from "../../../src/log.ts";
import type { MessageBuilder } from "../../../src/mta/message/builder.ts";
import type { StoredMessage } from "../../../src/core/store-port.ts";
import { encodeContent } from "../../../src/core/content.ts";
import { generateDkimKeys } from "../../../src/core/dkim-keys.ts";

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

  test("a worker that dies in the middle of a job fails that job at once (not at the timeout), and the next job gets a new worker", async () => {
    // A message that kills its worker (exit, an uncaught throw, a rejected handler), beside one it builds.
    const dir = mkdtempSync(join(tmpdir(), "postern-dying-worker-"));
    const deaths = { exit: "process.exit(3)", throw: "throw new Error('boom')", reject: "return Promise.reject(new Error('boom'))" };
    try {
      for (const [how, death] of Object.entries(deaths)) {
        const workerPath = join(dir, `${how}.ts`);
        writeFileSync(workerPath, `self.onmessage = (ev) => { const m = ev.data; if (m.type !== "build") return;
  if (m.message.id === "poison") { ${death}; }
  self.postMessage({ jobId: m.jobId, bytes: new TextEncoder().encode("built in a worker") }); };\n`);
        const builder = createWorkerBuilder({ workers: 1, keysFor: async () => [], now: () => 0, log: createLogger({ level: "silent" }), fallback,
          init: { publicUrl: "http://x", secret: "s", hostname: "h", bounceDomain: "" }, workerPath });
        try {
          const started = performance.now();
          await expect(builder.build({ ...message, id: "poison" }, [], "r")).rejects.toThrow(/signing worker failed/);
          expect(performance.now() - started).toBeLessThan(5_000);
          expect(new TextDecoder().decode(await builder.build({ ...message, id: "fine" }, [], "r"))).toBe("built in a worker");
        } finally {
          builder.close();
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("once workers have worked, a message that keeps killing its worker never moves signing onto the main thread", async () => {
    const dir = mkdtempSync(join(tmpdir(), "postern-poison-worker-"));
    const workerPath = join(dir, "poison.ts");
    writeFileSync(workerPath, `self.onmessage = (ev) => { const m = ev.data; if (m.type !== "build") return;
  if (m.message.id === "poison") process.exit(3);
  self.postMessage({ jobId: m.jobId, bytes: new TextEncoder().encode("built in a worker") }); };\n`);
    const builder = createWorkerBuilder({ workers: 1, keysFor: async () => [], now: () => 0, log: createLogger({ level: "silent" }), fallback,
      init: { publicUrl: "http://x", secret: "s", hostname: "h", bounceDomain: "" }, workerPath });
    try {
      expect(new TextDecoder().decode(await builder.build({ ...message, id: "fine" }, [], "r"))).toBe("built in a worker");
      // Its retries, five in a row: each fails in a fresh worker; none is built here (the fallback answers "built locally").
      for (let i = 0; i < 5; i++) await expect(builder.build({ ...message, id: "poison" }, [], "r")).rejects.toThrow(/signing worker failed/);
      expect(new TextDecoder().decode(await builder.build({ ...message, id: "fine2" }, [], "r"))).toBe("built in a worker");
    } finally {
      builder.close();
      rmSync(dir, { recursive: true, force: true });
    }
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

  test("a domain's link base (its tracking host) is asked on the main thread and used by the worker", async () => {
    const content = encodeContent({ from: { email: "news@a.test" }, to: [{ email: "r@x.test" }], subject: "s", html: '<a href="https://shop.example.org/">x</a>',
      attachments: [], tracking: { opens: false, clicks: true, clickText: false, unsubscribe: false, honeypot: false }, date: 1_800_000_000_000 });
    const tracked = { ...message, id: "tracked", sendId: "s", messageIdHeader: "<t@a.test>", from: "news@a.test", subject: "s", content, raw: null,
      tags: [], metadata: {}, callbackUrl: null, source: "sparkpost", isTest: false, size: 1, createdAt: 1_800_000_000_000 } as StoredMessage;
    const asked: string[] = [];
    const builder = createWorkerBuilder({ workers: 1, keysFor: async () => [], now: () => 0, log: createLogger({ level: "silent" }), fallback,
      init: { publicUrl: "http://public.example", secret: "s", hostname: "h", bounceDomain: "" },
      linkBaseFor: async (domain) => { asked.push(domain); return "https://email.a.test"; } });
    try {
      const bytes = new TextDecoder().decode(await builder.build(tracked, [], "r1"));
      expect(asked).toEqual(["a.test"]);
      expect(bytes).toContain("https://email.a.test/t/c/");
      expect(bytes).not.toContain("public.example");
    } finally {
      builder.close();
    }
  });

  test("a message shared by its recipients is signed once and handed over whole to each of them", async () => {
    const keys = (await generateDkimKeys("w1")).map((k) => ({ ...k, domainId: 1 }));
    const content = encodeContent({ from: { email: "news@a.test" }, to: [{ email: "r@x.test" }], subject: "shared", text: "hello ".repeat(500),
      attachments: [], tracking: { opens: false, clicks: false, clickText: false, unsubscribe: false, honeypot: false }, date: 1_800_000_000_000 });
    const shared = { ...message, id: "shared", sendId: "s", messageIdHeader: "<s@a.test>", from: "news@a.test", subject: "shared", content, raw: null,
      tags: [], metadata: {}, callbackUrl: null, source: "native", isTest: false, size: 1, createdAt: 1_800_000_000_000 } as StoredMessage;
    const builder = createWorkerBuilder({ workers: 1, keysFor: async () => keys, now: () => 1_800_000_000_000, log: createLogger({ level: "silent" }), fallback,
      init: { publicUrl: "http://x", secret: "s", hostname: "h", bounceDomain: "" } });
    try {
      // The worker hands each reply's buffer over (transfers it): what it keeps for the next recipient must stay whole.
      const built = await Promise.all(["r1", "r2", "r3"].map((r) => builder.build(shared, [], r)));
      const again = await builder.build(shared, [], "r4");
      const text = new TextDecoder().decode(built[0]);
      expect(text).toContain("DKIM-Signature: v=1; a=rsa-sha256");
      expect(text).toContain("hello hello");
      for (const b of [...built, again]) expect(new TextDecoder().decode(b)).toBe(text);
    } finally {
      builder.close();
    }
  });
});

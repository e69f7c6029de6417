// The signing workers' thread runs below the main thread: its nice value goes up, the main
// thread's (HTTP, SMTP replies) stays.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The nice value of one thread of this process (field 19 of its stat). */
const niceOf = (tid: number | string) => Number(readFileSync(`/proc/self/task/${tid}/stat`, "utf8").split(") ")[1]!.split(" ")[16]);

test.skipIf(process.platform !== "linux")("lowerThreadPriority raises the calling thread's nice value and no other", async () => {
  const module = join(import.meta.dir, "../../../src/mta/message/thread-priority.ts");
  const source = `import { lowerThreadPriority } from ${JSON.stringify(module)};
    import { readFileSync } from "node:fs";
    self.onmessage = async () => {
      const ok = await lowerThreadPriority(5);
      const stat = readFileSync("/proc/thread-self/stat", "utf8");
      postMessage({ ok, tid: Number(stat.split(" ")[0]) });
    };`;
  const worker = new Worker(URL.createObjectURL(new Blob([source], { type: "application/javascript" })));
  const before = niceOf(process.pid);
  const reply = await new Promise<{ ok: boolean; tid: number }>((resolve) => { worker.onmessage = (e) => resolve(e.data); worker.postMessage("go"); });
  try {
    expect(reply.ok).toBe(true);
    expect(niceOf(reply.tid)).toBe(before + 5);
    expect(niceOf(process.pid)).toBe(before);
  } finally {
    worker.terminate();
  }
});

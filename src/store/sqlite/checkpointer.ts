// WAL checkpoints on a thread of their own while a server runs. SQLite otherwise checkpoints inside
// the COMMIT that takes the write-ahead log past 1,000 pages: on the serving thread, copying pages
// and fsyncing the log and the database file, 10-50 ms during which no HTTP request is answered and
// no SMTP reply is read (bench/mta.ts: dozens of such stalls a run; a kill -9 in one of them sends
// again every message whose 250 was waiting to be read). Here the serving connections never
// checkpoint; a worker with its own connections to the same files runs PASSIVE checkpoints (they
// never block a writer) once a second. If the worker fails, the serving connections go back
// to checkpointing themselves: the log never grows without bound.
//
// A PASSIVE checkpoint copies pages back but never makes the log start over: SQLite rewinds the log
// only when a writer finds every frame copied and no reader in the log, which a busy server (there
// is always a read or a write in progress) almost never offers, so the file grew by gigabytes
// (issue #30). Once the log holds RESTART_AT bytes the worker tells the serving thread, which runs a
// TRUNCATE checkpoint on its own connection between two tasks of its event loop: every statement of
// the serving thread runs synchronously, so none of its reads is open then, the worker has already
// copied nearly every frame back, and the log file goes back to zero bytes. (A RESTART from the
// worker itself needed a moment with no reader at all, which a busy thread offers only by chance:
// the log then still grew past 100 MB in the test.)
import type { Database } from "bun:sqlite";

/**
 * Between two PASSIVE checkpoints. A checkpoint copies each page changed since the last one once,
 * however many commits changed it: the hot pages (count tables, the last page of every
 * append-ordered index) are copied once a second instead of five times (bench/soak.ts at 200 msg/s:
 * docs/performance.md, "Disk: WAL and bytes written").
 */
const INTERVAL_MS = 1_000;
/** Log size (bytes) past which the worker makes the log start over. */
export const RESTART_AT = 32 * 1024 * 1024;
/** How long a checkpoint may wait for another connection (the worker's, a CLI's) to let go. */
const RESTART_WAIT_MS = 50;
/** Ticks between two requests to truncate one file: each copies the last frames and syncs the files. */
const TRUNCATE_EVERY_TICKS = 1;
/** SQLite's default wal_autocheckpoint, restored when the worker stops or fails. */
const DEFAULT_AUTOCHECKPOINT = 1_000;
const STOP_TIMEOUT_MS = 2_000;

// Inline (a blob URL): no second entrypoint to list in build.ts for the compiled binary.
const WORKER_SOURCE = `
import { Database } from "bun:sqlite";
let dbs = [];
let timer = null;
self.onmessage = (ev) => {
  if (ev.data.type === "start") {
    dbs = ev.data.paths.map((p) => {
      const db = new Database(p);
      db.exec("PRAGMA busy_timeout = " + ev.data.restartWaitMs);
      const pageSize = db.query("PRAGMA page_size").get().page_size;
      return { db, frameBytes: pageSize + 24, cool: 0 };
    });
    timer = setInterval(() => {
      dbs.forEach((d, index) => {
        let r;
        // A full disk (SQLITE_FULL) fails this checkpoint only: the next tick tries again once
        // space returns, and the serving thread keeps its checkpoints off meanwhile.
        try { r = d.db.query("PRAGMA wal_checkpoint(PASSIVE)").get(); } catch { return; }
        if (d.cool > 0) d.cool--;
        else if (r.log * d.frameBytes >= ev.data.restartAt) { d.cool = ev.data.truncateEveryTicks; postMessage({ type: "big", index }); }
      });
    }, ev.data.intervalMs);
  } else if (ev.data.type === "stop") {
    clearInterval(timer);
    for (const { db } of dbs) db.close();
    postMessage({ type: "stopped" });
  }
};
`;

export interface Checkpointer { stop(): Promise<void> }

/**
 * Moves the checkpoints of `files` (open on the serving thread as `db`) to a worker thread. `tune`:
 * a shorter interval and a smaller log bound, so a test sees the same turns in less time.
 */
export function startCheckpointer(files: { db: Database; path: string }[], onFailure?: (why: string) => void,
  tune: { intervalMs?: number; restartAt?: number } = {}): Checkpointer {
  const setAuto = (pages: number) => { for (const f of files) f.db.exec(`PRAGMA wal_autocheckpoint = ${pages}`); };
  const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "application/javascript" }));
  const worker = new Worker(url);
  let stopping = false;
  let stopped: Promise<void> | null = null;
  const fail = (why: string) => {
    if (stopping) return;
    stopping = true;
    setAuto(DEFAULT_AUTOCHECKPOINT);
    onFailure?.(why);
  };
  worker.onerror = (e) => fail(String((e as ErrorEvent).message ?? e));
  worker.addEventListener("message", (ev: MessageEvent<{ type: string; index: number }>) => {
    const f = files[ev.data.index];
    if (ev.data.type !== "big" || !f || stopping) return;
    try {
      f.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    } catch (e) {
      onFailure?.(`WAL truncate failed: ${String((e as Error)?.message ?? e)}`);
    }
  });
  worker.addEventListener("close", () => fail("checkpoint worker exited"));
  setAuto(0);
  worker.postMessage({ type: "start", paths: files.map((f) => f.path), intervalMs: tune.intervalMs ?? INTERVAL_MS, restartAt: tune.restartAt ?? RESTART_AT, restartWaitMs: RESTART_WAIT_MS,
    truncateEveryTicks: TRUNCATE_EVERY_TICKS });
  worker.unref();
  return {
    /** Idempotent; before the serving connections close. Leaves every log at zero bytes (the last close removes it). */
    stop() {
      return (stopped ??= (async () => {
        const failed = stopping;
        stopping = true;
        setAuto(DEFAULT_AUTOCHECKPOINT);
        if (!failed) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, STOP_TIMEOUT_MS);
            worker.addEventListener("message", (ev: MessageEvent<{ type: string }>) => { if (ev.data.type === "stopped") { clearTimeout(timer); resolve(); } });
            worker.postMessage({ type: "stop" });
          });
        }
        worker.terminate();
        URL.revokeObjectURL(url);
        // The log back to zero bytes now, not at the last close: a CLI (or a backup) holding the
        // file open keeps the log alive after the server's connection closes, at whatever size the
        // last TRUNCATE left it (up to RESTART_AT). The worker's connections are closed: nothing
        // of ours reads. A reader elsewhere makes this return busy, and the log stays as it is.
        for (const f of files) {
          try { f.db.exec("PRAGMA wal_checkpoint(TRUNCATE)"); } catch { /* closed or busy: SQLite checkpoints at the last close */ }
        }
      })());
    },
  };
}

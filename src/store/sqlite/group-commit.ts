// Group commit: the writes of one zone file (accepted sends, claims, delivery outcomes) share
// transactions; each caller's promise resolves only after the shared COMMIT, so "resolved" still
// means "on disk". A failing batch is retried one write at a time, so one bad write fails only its
// own caller.
//
// Every page a transaction touches is written whole to the log, and most of an accept's or an
// outcome's pages are the last pages of the same tables and indexes (events and their four
// indexes, the count tables, the file header): two writes in one transaction cost little more than
// one. While writes keep coming, a file therefore commits at most once per `intervalMs`, like
// PostgreSQL's commit_delay. An idle file commits in the same turn of the event loop, so a lone
// write waits for nothing. A sender that sends one message at a time and waits for each answer
// gains nothing from the wait (no other accept can join it): when the waits keep committing one
// accept alone, accepts stop waiting for a while (docs/performance.md, "Sharing commits").
import type { Database } from "bun:sqlite";

/** Commits at most once per this while writes keep coming (0: every turn of the event loop). */
export const COMMIT_INTERVAL_MS = 10;
/** Writes waiting that are worth a commit at once, interval or not (a burst is not held up). */
const FLUSH_AT = 8;
/** Of the last WINDOWS waits that held an accept, this many with one accept alone: stop holding. */
const WINDOWS = 16;
const ALONE = 12;
/** How long accepts then commit at once before waiting is tried again. */
const NOT_HOLDING_MS = 10_000;

interface Job { run: () => unknown; resolve: (v: unknown) => void; reject: (e: unknown) => void; caller: boolean }

export interface GroupCommit {
  /**
   * Runs `write` in a transaction shared with other writes; resolves with its result once
   * committed. `caller`: somebody waits for the answer (an accept), not a background writer.
   */
  run<R>(write: () => R, opts?: { caller?: boolean }): Promise<R>;
  /** Commits what is waiting now (before the file closes). */
  flush(): void;
}

export function createGroupCommit(db: Database, opts: { intervalMs?: number } = {}): GroupCommit {
  const intervalMs = opts.intervalMs ?? COMMIT_INTERVAL_MS;
  let pending: Job[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  let immediate = false;
  let lastCommit = -Infinity;
  const alone: boolean[] = [];
  let holdAgainAt = 0;

  function commit(batch: Job[]) {
    try {
      // IMMEDIATE: the write lock up front, so a CLI writing the same file waits (busy_timeout)
      // instead of failing a read-then-write transaction half-way.
      const results = db.transaction(() => batch.map((j) => j.run())).immediate();
      batch.forEach((j, i) => j.resolve(results[i]));
    } catch {
      for (const j of batch) {
        try { j.resolve(db.transaction(j.run).immediate()); } catch (e) { j.reject(e); }
      }
    }
    lastCommit = performance.now();
  }

  /** After a wait that held accepts: were they alone? Enough lone waits turn holding off. */
  function learn(batch: Job[]) {
    const callers = batch.filter((j) => j.caller).length;
    if (!callers) return;
    alone.push(callers === 1);
    if (alone.length > WINDOWS) alone.shift();
    if (alone.filter(Boolean).length >= ALONE) { holdAgainAt = performance.now() + NOT_HOLDING_MS; alone.length = 0; }
  }

  function flush(waited = false) {
    if (timer) { clearTimeout(timer); timer = null; }
    immediate = false;
    const batch = pending;
    pending = [];
    if (!batch.length) return;
    if (waited) learn(batch);
    commit(batch);
  }

  function schedule(job: Job) {
    if (immediate) return;
    const now = performance.now();
    const callerNow = job.caller && now < holdAgainAt;
    if (lastCommit + intervalMs <= now || pending.length >= FLUSH_AT || callerNow) {
      if (timer) { clearTimeout(timer); timer = null; }
      immediate = true;
      setImmediate(flush);
    } else timer ??= setTimeout(() => flush(true), lastCommit + intervalMs - now);
  }

  return {
    run<R>(write: () => R, opts?: { caller?: boolean }): Promise<R> {
      return new Promise<R>((resolve, reject) => {
        const job: Job = { run: write, resolve: resolve as (v: unknown) => void, reject, caller: opts?.caller === true };
        pending.push(job);
        schedule(job);
      });
    },
    flush: () => flush(),
  };
}

// Hands delivery outcomes to the recorder as soon as they are known: the outcomes that arrive in one
// turn of the event loop share a write, and the store commits them with its other writes
// (SQLite: group-commit.ts, after journaling them at once: outcome-journal.ts), so a kill -9 finds
// no outcome waiting for a timer of ours. A batch that cannot be written is kept and retried, row
// by row after repeated failures so one bad row cannot block the rest; recipients count as in
// flight until their outcome is on disk. A big batch goes in pieces with a turn between them.
import type { Logger } from "../../log.ts";
import type { Recorder } from "../../core/recorder.ts";
import type { AppliedOutcome } from "./policy.ts";

/** Outcomes per transaction at most: about 25 µs each on SQLite, so one holds the loop for a few ms. */
const MAX_PER_TRANSACTION = 64;
const FLUSH_RETRY_MS = 1_000;
const FAILURES_BEFORE_ROW_BY_ROW = 3;

export interface OutcomeWriterDeps {
  recorder: Recorder;
  log: Logger;
  /** Called with the recipient ids whose outcomes are now on disk. */
  onWritten: (ids: string[]) => void;
}

export function createOutcomeWriter(deps: OutcomeWriterDeps) {
  const pending = new Map<string, AppliedOutcome[]>();
  const failures = new Map<string, number>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** Flushes under way: each took its own outcomes, so they may overlap (a write waits for a commit). */
  const flushing = new Set<Promise<void>>();
  let soon = false;

  const schedule = (ms: number) => { timer ??= setTimeout(() => { timer = null; void flush(); }, ms); };
  // An outcome not yet on disk is one a kill -9 would deliver twice: write it in this turn of the
  // event loop, not after a timer that a busy loop fires late. setImmediate runs once the replies
  // that arrived together have all been read (a microtask would commit each reply on its own):
  // one transaction per turn, not per recipient (a commit costs about 100 µs, the rows 50).
  const flushSoon = () => {
    if (soon) return;
    soon = true;
    setImmediate(() => { soon = false; void flush(); });
  };

  async function write(zone: string, batch: AppliedOutcome[]) {
    await deps.recorder.record(zone, { updates: batch.map((a) => a.update), events: batch.flatMap((a) => a.events) });
    deps.onWritten(batch.map((a) => a.update.id));
  }

  async function writeZone(zone: string, batch: AppliedOutcome[]): Promise<AppliedOutcome[]> {
    if ((failures.get(zone) ?? 0) < FAILURES_BEFORE_ROW_BY_ROW) {
      try { await write(zone, batch); failures.delete(zone); return []; } catch (err) {
        failures.set(zone, (failures.get(zone) ?? 0) + 1);
        deps.log.error("could not write delivery outcomes; retrying", { zone, error: String(err) });
        return batch;
      }
    }
    const left: AppliedOutcome[] = [];
    for (const one of batch) {
      try { await write(zone, [one]); } catch (err) { left.push(one); deps.log.error("could not write a delivery outcome", { zone, rcpt: one.update.id, error: String(err) }); }
    }
    if (left.length < batch.length) failures.delete(zone);
    return left;
  }

  async function flushNow() {
    const batches = [...pending.entries()];
    pending.clear();
    const writes: Promise<void>[] = [];
    for (const [zone, all] of batches) {
      for (let i = 0; i < all.length; i += MAX_PER_TRANSACTION) {
        // Each piece is handed over without waiting for the one before to commit.
        if (writes.length) await new Promise<void>((resolve) => setImmediate(resolve));
        writes.push(writeZone(zone, all.slice(i, i + MAX_PER_TRANSACTION)).then((left) => {
          if (left.length) { pending.set(zone, [...left, ...(pending.get(zone) ?? [])]); schedule(FLUSH_RETRY_MS); }
        }));
      }
    }
    await Promise.all(writes);
  }

  async function flush() {
    // Outcomes that arrive while an earlier write waits for its commit are written now, not after
    // it: what is not yet on its way to disk is what a kill -9 would deliver twice.
    const run = flushNow().finally(() => flushing.delete(run));
    flushing.add(run);
    await run;
  }

  return {
    record(zone: string, applied: AppliedOutcome[]) {
      if (!applied.length) return;
      const list = pending.get(zone) ?? [];
      list.push(...applied);
      pending.set(zone, list);
      flushSoon();
    },
    /** Writes everything pending now (stop, drain). */
    async flushAll() {
      if (timer) { clearTimeout(timer); timer = null; }
      await flush();
      while (flushing.size) await Promise.all([...flushing]);
    },
  };
}

export type OutcomeWriter = ReturnType<typeof createOutcomeWriter>;

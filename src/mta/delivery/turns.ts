// Turns for the CPU-heavy step of a delivery attempt (composing and signing the next message).
// Normally one per turn of the event loop, so replies that arrived meanwhile are read, and their
// outcomes written, between two builds: on a busy loop a 250 left unread behind a run of builds is
// a message a kill -9 sends twice. While API callers wait (many requests open), one per
// CALLERS_FIRST_MS: accepting goes first, delivery never stops and catches up after the burst.

/**
 * bench/mta.ts from source, 32 requests always open, 10,000 messages: at 100 ms the load's p99 was
 * 18.6-24.6 ms (69-114 requests over 20 ms) and 4,000-4,500 accepted/s, against 24.9 ms (156-228
 * over 20 ms) and 3,600-3,800/s at 10 ms, at the same delivered msg/s (1,217-1,262 against
 * 1,239-1,288). Every attempt during a burst costs the callers main-thread time (claims, the SMTP
 * session, outcomes, events) and a core for signing.
 */
export const CALLERS_FIRST_MS = 100;

/** Returns `turn()`: resolves when the caller may start its next build (in order, one at a time). */
export function createTurns(callersWaiting?: () => boolean): () => Promise<void> {
  const waiting: (() => void)[] = [];
  let scheduled = false;
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    if (callersWaiting?.()) setTimeout(next, CALLERS_FIRST_MS); else setImmediate(next);
  };
  function next() {
    scheduled = false;
    waiting.shift()?.();
    if (waiting.length) schedule();
  }
  return () => new Promise<void>((resolve) => { waiting.push(resolve); schedule(); });
}

// Turns for the start of a delivery attempt (composing and signing the next message, then its
// SMTP session and outcome). Normally one per turn of the event loop, so replies that arrived
// meanwhile are read, and their outcomes written, between two builds: on a busy loop a 250 left
// unread behind a run of builds is a message a kill -9 sends twice.
//
// While API callers wait (many requests open), accepting comes first but delivery keeps a bounded
// share of the main thread: turns are spaced by a gap that follows the event loop's lag (how late
// a timer fires is how long a caller's request waits for the loop). Lag above LAG_TARGET_MS doubles
// the gap, up to MAX_GAP_MS (20 starts/s at worst); lag below it shrinks the gap towards MIN_GAP_MS. The fixed gap of
// 100 ms this replaced gave 10 attempts/s during a burst: 2,399 delivered of 49,773 accepted in
// 60 s, and a message sent on the side waited 3.5 s behind the others.
//
// Waiters queue per lane (the destination domain) and lanes take turns round robin: a destination
// that just got its first recipient (a password reset among a newsletter) waits for one turn, not
// behind every recipient of the busy destination.

/** The loop lag callers tolerate: accept p99 must stay under 50 ms, and a turn's own work is a few ms. */
export const LAG_TARGET_MS = 15;
/** The fastest pace while callers wait: at most one attempt starts per MIN_GAP_MS. */
export const MIN_GAP_MS = 2;
/** The slowest pace: delivery never stops, it gets at least 1000 / MAX_GAP_MS starts a second. */
export const MAX_GAP_MS = 50;

/** The next gap from the current one and how late the last timer fired. */
export function nextGap(gap: number, lagMs: number): number {
  if (lagMs > LAG_TARGET_MS) return Math.min(MAX_GAP_MS, Math.max(gap * 2, MIN_GAP_MS * 2));
  return Math.max(MIN_GAP_MS, gap * 0.75);
}

export interface Turns {
  /** Resolves when the caller may start its next attempt; `lane` is its destination. */
  (lane?: string): Promise<void>;
  /** The gap now between two turns while callers wait (ms). */
  gap(): number;
}

/** Returns `turn(lane)`: one waiter at a time, lanes round robin, in order within a lane. */
export function createTurns(callersWaiting?: () => boolean): Turns {
  const lanes = new Map<string, (() => void)[]>();
  let waiting = 0;
  let scheduled = false;
  let gap = MIN_GAP_MS;
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    if (!callersWaiting?.()) { setImmediate(next); return; }
    const due = performance.now() + gap;
    setTimeout(() => { gap = nextGap(gap, performance.now() - due); next(); }, gap);
  };
  function next() {
    scheduled = false;
    // The first lane in insertion order goes; if it still has waiters it goes to the back.
    const [lane, queue] = lanes.entries().next().value ?? [];
    if (lane === undefined || !queue) return;
    lanes.delete(lane);
    const resolve = queue.shift()!;
    if (queue.length) lanes.set(lane, queue);
    waiting--;
    resolve();
    if (waiting) schedule();
  }
  const turn = ((lane = "") => new Promise<void>((resolve) => {
    const queue = lanes.get(lane);
    if (queue) queue.push(resolve); else lanes.set(lane, [resolve]);
    waiting++;
    schedule();
  })) as Turns;
  turn.gap = () => gap;
  return turn;
}

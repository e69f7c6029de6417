// Turns for the start of a delivery attempt (composing and signing the next message, then its
// SMTP session and outcome). Normally one per turn of the event loop, so replies that arrived
// meanwhile are read, and their outcomes written, between two builds: on a busy loop a 250 left
// unread behind a run of builds is a message a kill -9 sends twice.
//
// While API callers wait (many requests open), accepting comes first but delivery keeps a bounded
// share of the main thread: turns are spaced by a gap that follows the event loop's lag (how late
// a timer fires is how long a caller's request waits for the loop). Lag above LAG_TARGET_MS doubles
// the gap, up to MAX_GAP_MS (50 starts/s at worst); lag below it shrinks the gap towards MIN_GAP_MS. The fixed gap of
// 100 ms this replaced gave 10 attempts/s during a burst: 2,399 delivered of 49,773 accepted in
// 60 s, and a message sent on the side waited 3.5 s behind the others.
//
// Waiters queue per lane (the destination domain) and the lane served least recently goes next: a
// destination that just got a recipient (a password reset among a newsletter to 200 domains) waits
// for one turn, not behind a round of every busy destination.

/** The loop lag callers tolerate: half the 50 ms accept p99 budget (the rest is the request's own work and its commit). */
export const LAG_TARGET_MS = 25;
/** The fastest pace while callers wait: at most one attempt starts per MIN_GAP_MS. */
export const MIN_GAP_MS = 2;
/** The slowest pace: delivery never stops, it gets at least 1000 / MAX_GAP_MS starts a second. A
 *  fixed 10 ms gap measured a load p99 of 24.9 ms (100 ms: 18.6-24.6 ms) with 32 requests open. */
export const MAX_GAP_MS = 20;

/**
 * Turns handed out per timer while callers wait, at most: with the loop on time a gap carries a few
 * starts. One start per 2 ms capped delivery at 500 attempts/s while an API load was accepted,
 * whatever the receivers allowed (with every MX reply 30 ms late, 60 % of the round-trip bound:
 * #41); the burst doubles while the timer fires on time and halves when it is late, so on a loop
 * that is the bottleneck it is back to one start per gap.
 */
export const MAX_BURST = 8;

/** The next burst from the current one and how late the last timer fired. */
export function nextBurst(burst: number, lagMs: number): number {
  if (lagMs > LAG_TARGET_MS / 5) return Math.max(1, burst >> 1);
  return Math.min(MAX_BURST, burst * 2);
}

/** The next gap from the current one and how late the last timer fired. */
export function nextGap(gap: number, lagMs: number): number {
  if (lagMs > LAG_TARGET_MS) return Math.min(MAX_GAP_MS, Math.max(gap * 2, MIN_GAP_MS * 2));
  return Math.max(MIN_GAP_MS, gap * 0.75);
}

/** Builds handed out and not yet finished, at most: the signing workers' queue stays short, so a
 *  message whose turn came is signed next instead of behind hundreds (on 2 busy cores a worker at
 *  a lower priority may sign slower than turns come), and waiting happens here, where the least
 *  recently served destination goes first. 8 keeps one worker busy between two main-thread turns. */
export const MAX_BUILDING = 8;

export interface Turns {
  /** Resolves when the caller may start its next attempt (`lane`: its destination), with the
   *  function to call once its message is built (idempotent; call it on every path). */
  (lane?: string): Promise<() => void>;
  /** The gap now between two turns while callers wait (ms). */
  gap(): number;
}

/** Returns `turn(lane)`: one waiter at a time, the least recently served lane first, in order within a lane. */
export function createTurns(callersWaiting?: () => boolean): Turns {
  const lanes = new Map<string, ((built: () => void) => void)[]>();
  /** When each lane with waiters was last served (a turn count); a lane new to the queue has none. */
  const servedAt = new Map<string, number>();
  let served = 0;
  let waiting = 0;
  let building = 0;
  let scheduled = false;
  let gap = MIN_GAP_MS;
  let burst = 1;
  const schedule = () => {
    if (scheduled || building >= MAX_BUILDING) return;
    scheduled = true;
    if (!callersWaiting?.()) { setImmediate(next); return; }
    const due = performance.now() + gap;
    setTimeout(() => {
      const lag = performance.now() - due;
      gap = nextGap(gap, lag);
      burst = nextBurst(burst, lag);
      for (let i = 1; i < burst && waiting && building < MAX_BUILDING - 1; i++) serve();
      next();
    }, gap);
  };
  // A scan over the lanes with waiters: a few hundred destinations at most, once per turn.
  function pickLane(): string | undefined {
    let best: string | undefined;
    let bestAt = Infinity;
    for (const lane of lanes.keys()) {
      const at = servedAt.get(lane) ?? -1;
      if (at < bestAt) { best = lane; bestAt = at; }
    }
    return best;
  }
  function next() {
    scheduled = false;
    serve();
    if (waiting) schedule();
  }
  /** Hands the next turn out (the least recently served lane's first waiter); schedules nothing. */
  function serve() {
    const lane = pickLane();
    if (lane === undefined) return;
    const queue = lanes.get(lane)!;
    const resolve = queue.shift()!;
    if (queue.length) servedAt.set(lane, ++served);
    else { lanes.delete(lane); servedAt.delete(lane); }
    waiting--;
    building++;
    let built = false;
    resolve(() => {
      if (built) return;
      built = true;
      building--;
      if (waiting) schedule();
    });
  }
  const turn = ((lane = "") => new Promise<() => void>((resolve) => {
    const queue = lanes.get(lane);
    if (queue) queue.push(resolve); else lanes.set(lane, [resolve]);
    waiting++;
    schedule();
  })) as Turns;
  turn.gap = () => gap;
  return turn;
}

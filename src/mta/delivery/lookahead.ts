// Messages built ahead (#41): a destination's next recipients are composed and signed while its
// connections wait for the receiver's replies, so a reused connection sends its next message as
// soon as the last one is answered. Built in line, each message cost its connection the turn and
// the signing worker's round trip (2.5–3.5 ms measured between a reply and the next MAIL, on top
// of a 30 ms round trip: a tenth of the rate a destination's connection limit allows).
//
// Keyed by recipient id. An entry is taken by the recipient's attempt, or dropped when the row is
// handed back unattempted; past MAX_AHEAD the oldest goes (its attempt then builds it again), so
// an entry nobody takes costs a bounded amount of memory and nothing else.

/** Built messages held at most: the scheduler's rows in flight bound them long before this. */
export const MAX_AHEAD = 1024;

export interface Lookahead {
  /** Starts `build` for `id` unless it is already under way or done. */
  start(id: string, build: () => Promise<Uint8Array | null>): void;
  /** The early build of `id`, once (null: it was skipped or failed, so build in line). */
  take(id: string): Promise<Uint8Array | null> | undefined;
  drop(id: string): void;
  size(): number;
}

export function createLookahead(max = MAX_AHEAD): Lookahead {
  const ahead = new Map<string, Promise<Uint8Array | null>>();
  return {
    start(id, build) {
      if (ahead.has(id)) return;
      if (ahead.size >= max) ahead.delete(ahead.keys().next().value!);
      // A failed early build is not an outcome: the attempt builds again and meets the error itself.
      ahead.set(id, build().catch(() => null));
    },
    take(id) {
      const p = ahead.get(id);
      if (p) ahead.delete(id);
      return p;
    },
    drop(id) { ahead.delete(id); },
    size: () => ahead.size,
  };
}

// Who hears that something was written: registered once in app.ts, told after the write commits.
// Producers hold a list of subscribers instead of closures passed in, so the wiring is one line
// per pair in the composition root and a producer never knows who listens.

/** Told when outbox items were written outside the recorder (inbound posts, bot verdict pushes). */
export interface OutboxSubscriber { outboxQueued(): void }

export function createSubscribers<S>() {
  const list: S[] = [];
  return {
    /** Registers a subscriber (once, in app.ts). */
    subscribe(s: S) { list.push(s); },
    each(f: (s: S) => void) { for (const s of list) f(s); },
  };
}

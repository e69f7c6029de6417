// One lane per webhook target (its URL): a lane runs at most `concurrency` POSTs at once, and a
// lane whose POSTs fail (timeouts, refused connections, 5xx) is backed off on its own schedule and
// then probed with one POST at a time until one succeeds. Lanes never wait for each other: a hung
// target holds only its own slots, so every other target keeps its latency.

const FORGET_AFTER_MS = 3_600_000;
/** Claimed items a lane may hold per slot: enough to keep a fast target busy between claims. */
export const LANE_DEPTH = 8;

export type Outcome = "ok" | "failed" | "final";

export interface LaneJob {
  /** Makes the POST and records its result; resolves with how it went. */
  run(): Promise<Outcome>;
  /** Hands a claimed job back (due again at `at`) because its lane was backed off meanwhile. */
  release(at: number): Promise<void>;
}

interface Lane { inFlight: number; queue: LaneJob[]; failures: number; openAt: number }

export interface LaneOptions {
  concurrency: number;
  /** The wait before a failing lane is tried again, by consecutive failures (1, 2, ...). */
  backoff(failures: number): number;
  now(): number;
  /** A slot came free: more due items of that target may now be claimed. */
  onFree(): void;
  /** A target that had failed answered again: its waiting items may go now. */
  onRecovered(key: string): void;
  onError(e: unknown): void;
}

export function createLanes(opts: LaneOptions) {
  const lanes = new Map<string, Lane>();
  const running = new Set<Promise<void>>();

  const capOf = (l: Lane) => (l.failures > 0 ? 1 : opts.concurrency);

  function pump(key: string, l: Lane) {
    if (l.openAt > opts.now()) {
      for (const job of l.queue.splice(0)) track(job.release(l.openAt));
    }
    while (l.inFlight < capOf(l) && l.queue.length) start(key, l, l.queue.shift()!);
    if (l.inFlight === 0 && l.queue.length === 0 && l.failures === 0) lanes.delete(key);
  }

  function track(p: Promise<unknown>) {
    const t: Promise<void> = p.then(() => undefined, opts.onError).finally(() => running.delete(t));
    running.add(t);
  }

  function start(key: string, l: Lane, job: LaneJob) {
    l.inFlight++;
    track(job.run().then((outcome) => {
      if (outcome === "failed") { l.failures++; l.openAt = opts.now() + opts.backoff(l.failures); return; }
      if (l.failures > 0) opts.onRecovered(key);
      l.failures = 0;
      l.openAt = 0;
    }, (e) => { l.failures++; l.openAt = opts.now() + opts.backoff(l.failures); opts.onError(e); }).finally(() => {
      l.inFlight--;
      pump(key, l);
      opts.onFree();
    }));
  }

  return {
    /** Queues a claimed job on its target's lane; it starts as soon as the lane has a slot. */
    submit(key: string, job: LaneJob) {
      let l = lanes.get(key);
      if (!l) lanes.set(key, (l = { inFlight: 0, queue: [], failures: 0, openAt: 0 }));
      l.queue.push(job);
      pump(key, l);
    },
    /** Targets not to claim for now: backed off, or with every slot taken. */
    closed(): string[] {
      const now = opts.now();
      // A failed target that has had nothing to send for an hour starts afresh next time.
      for (const [k, l] of lanes) if (l.inFlight === 0 && l.queue.length === 0 && l.openAt < now - FORGET_AFTER_MS) lanes.delete(k);
      return [...lanes].filter(([, l]) => l.openAt > now || l.inFlight + l.queue.length >= capOf(l) * LANE_DEPTH).map(([k]) => k);
    },
    /** Failed targets whose backoff is over and that have nothing in hand: each wants one item as a probe. */
    probing(): string[] {
      const now = opts.now();
      return [...lanes].filter(([, l]) => l.failures > 0 && l.openAt <= now && l.inFlight === 0 && l.queue.length === 0).map(([k]) => k);
    },
    /** Waits for POSTs in flight, at most `graceMs`. */
    async drain(graceMs: number) {
      await Promise.race([Promise.all([...running]), Bun.sleep(graceMs)]);
    },
    /** In-flight count and backoff per target (stats and tests). */
    state: () => [...lanes].map(([key, l]) => ({ key, inFlight: l.inFlight, queued: l.queue.length, failures: l.failures, openAt: l.openAt })),
  };
}

export type Lanes = ReturnType<typeof createLanes>;

// Re-runs the doctor on `[doctor] interval` while the server runs: the first run shortly after
// start (the interval, at most FIRST_RUN_MAX_MS: a server that starts and stops at once, as tests
// and upgrades do, asks nothing), the next an interval after the previous one ended (a slow run
// never overlaps itself), none with 0.
export const FIRST_RUN_MAX_MS = 30_000;
/** How long stop() waits for a run in progress (its probes time out on their own). */
const STOP_WAIT_MS = 1000;

export function createSchedule(deps: { intervalMs: number; run(): Promise<unknown>; log?: { error(msg: string, fields?: Record<string, unknown>): void };
  firstRunMs?: number }) {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<unknown> | null = null;
  let started = false;

  async function tick() {
    timer = null;
    try {
      running = deps.run();
      await running;
    } catch (e) {
      deps.log?.error("doctor run failed", { error: String(e), stack: (e as Error).stack ?? "" });
    } finally {
      running = null;
    }
    if (started) timer = setTimeout(tick, deps.intervalMs);
  }

  return {
    start() {
      if (started || deps.intervalMs <= 0) return;
      started = true;
      timer = setTimeout(tick, deps.firstRunMs ?? Math.min(deps.intervalMs, FIRST_RUN_MAX_MS));
    },
    /** Stops the schedule and waits (briefly) for a run in progress. */
    async stop() {
      started = false;
      if (timer) clearTimeout(timer);
      timer = null;
      if (running) await Promise.race([running.catch(() => {}), Bun.sleep(STOP_WAIT_MS)]);
    },
  };
}

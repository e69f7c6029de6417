// Re-runs the doctor on `[doctor] interval` while the server runs: a first run at once, the next
// an interval after the previous one ended (a slow run never overlaps itself), none with 0.
export function createSchedule(deps: { intervalMs: number; run(): Promise<unknown>; log?: { error(msg: string, fields?: Record<string, unknown>): void } }) {
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
      timer = setTimeout(tick, 0);
    },
    /** Stops the schedule and waits for a run in progress. */
    async stop() {
      started = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await running?.catch(() => {});
    },
  };
}

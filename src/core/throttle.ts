// Failed-authentication throttling, shared by SMTP AUTH and API keys: failures are counted per
// subject (an IP, a login) in a bounded table; after `freeFailures` failures a subject is locked
// out for a time that doubles with each further failure (up to `maxLockMs`), and every failure
// answer is delayed a little more than the last. A success clears the login, not the IP.
export interface ThrottleOptions {
  now: () => number;
  /** Failures allowed before the lockouts start. */
  freeFailures?: number;
  /** First lockout; doubles with each failure after it. */
  baseLockMs?: number;
  maxLockMs?: number;
  /** Failures are forgotten this long after the last one. */
  forgetMs?: number;
  /** Delay added per failure to the failing answer, and its ceiling. */
  delayStepMs?: number;
  maxDelayMs?: number;
  /** Subjects remembered at most (oldest forgotten first): memory stays bounded under a flood. */
  maxSubjects?: number;
}

interface Entry { failures: number; last: number; lockedUntil: number }

export function createThrottle(opts: ThrottleOptions) {
  const o = { freeFailures: 5, baseLockMs: 1_000, maxLockMs: 15 * 60_000, forgetMs: 60 * 60_000, delayStepMs: 100, maxDelayMs: 2_000,
    maxSubjects: 50_000, ...opts };
  const table = new Map<string, Entry>();

  const live = (subject: string): Entry | undefined => {
    const e = table.get(subject);
    if (e && o.now() - e.last > o.forgetMs) { table.delete(subject); return undefined; }
    return e;
  };

  return {
    /** Milliseconds until `subjects` may try again (0: now). */
    lockedFor(subjects: string[]): number {
      let wait = 0;
      for (const s of subjects) wait = Math.max(wait, (live(s)?.lockedUntil ?? 0) - o.now());
      return Math.max(0, wait);
    },

    /** Records a failure for each subject; returns how long to hold the failing answer. */
    fail(subjects: string[]): number {
      let delay = 0;
      for (const s of subjects) {
        const e = live(s) ?? { failures: 0, last: 0, lockedUntil: 0 };
        e.failures++;
        e.last = o.now();
        const over = e.failures - o.freeFailures;
        if (over >= 0) e.lockedUntil = o.now() + Math.min(o.maxLockMs, o.baseLockMs * 2 ** Math.min(over, 30));
        table.delete(s);
        table.set(s, e); // most recent last: the oldest are evicted first
        delay = Math.max(delay, Math.min(o.maxDelayMs, e.failures * o.delayStepMs));
      }
      while (table.size > o.maxSubjects) table.delete(table.keys().next().value!);
      return delay;
    },

    succeed(subject: string): void {
      table.delete(subject);
    },

    size: () => table.size,
  };
}

export type Throttle = ReturnType<typeof createThrottle>;

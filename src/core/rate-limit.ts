// Request rate limits as token buckets, one per subject (an API key, a client IP): `rate` tokens a
// second, bursts up to `burst` (default: one second's worth). The table is bounded: idle buckets (full
// again) are dropped first, so a flood of distinct subjects cannot grow memory without end.
export interface RateLimiter {
  /** Takes a token for `subject`; returns 0 when allowed, else the seconds until one is free. */
  take(subject: string): number;
  size(): number;
}

export function createRateLimiter(opts: { rate: number; now: () => number; maxSubjects?: number; burst?: number }): RateLimiter {
  const maxSubjects = opts.maxSubjects ?? 100_000;
  const burst = opts.burst ?? opts.rate;
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(subject) {
      if (opts.rate <= 0) return 0;
      const now = opts.now();
      const b = buckets.get(subject) ?? { tokens: burst, at: now };
      b.tokens = Math.min(burst, b.tokens + ((now - b.at) / 1000) * opts.rate);
      b.at = now;
      buckets.delete(subject);
      buckets.set(subject, b);
      if (buckets.size > maxSubjects) buckets.delete(buckets.keys().next().value!);
      if (b.tokens >= 1) { b.tokens -= 1; return 0; }
      return Math.max(1, Math.ceil((1 - b.tokens) / opts.rate));
    },
    size: () => buckets.size,
  };
}

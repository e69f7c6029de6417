// A small seeded random source for the independent bot evaluation (mulberry32). Written apart from
// the committed set's generator (test/fixtures/bots/gen) so that nothing is shared with it.

export interface Rand {
  next(): number;
  uniform(lo: number, hi: number): number;
  /** Integer in [lo, hi], both ends included. */
  int(lo: number, hi: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Log-uniform in [lo, hi]: delays spread over orders of magnitude (seconds to hours). */
  logUniform(lo: number, hi: number): number;
  /** Picks by weight; weights need not sum to 1. */
  weighted<T>(items: readonly (readonly [T, number])[]): T;
}

export function createRand(seed: number): Rand {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const r: Rand = {
    next,
    uniform: (lo, hi) => lo + (hi - lo) * next(),
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => next() < p,
    pick: (items) => {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new Error("pick from an empty list");
      return item;
    },
    logUniform: (lo, hi) => Math.exp(Math.log(lo) + (Math.log(hi) - Math.log(lo)) * next()),
    weighted: (items) => {
      const total = items.reduce((s, [, w]) => s + w, 0);
      let x = next() * total;
      for (const [item, w] of items) {
        x -= w;
        if (x < 0) return item;
      }
      const last = items[items.length - 1];
      if (!last) throw new Error("weighted pick from an empty list");
      return last[0];
    },
  };
  return r;
}

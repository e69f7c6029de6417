// Picks the egress source of one attempt from its pool. A warming source (warm-up day 1..41) takes
// mail first, up to its hourly cap, counted in the store so every node shares the cap; beyond it
// the pool's warm sources take the rest in turn. With no warm source and every warming one at its
// cap, there is none: the attempt is deferred and waits for the next hour (contract §9).
import type { EgressCounterStore } from "../../core/egress/counter-port.ts";
import type { EgressDirectory, EgressSource } from "../../core/egress/directory.ts";
import { hourOf, hourStartMs, hourlyCap, warmupDay } from "../../core/egress/warmup-schedule.ts";
import type { Logger } from "../../log.ts";

/** Warm sources' sends are counted in memory and written at most this often (they have no cap to hold). */
const FLUSH_MS = 1_000;

export interface EgressSelectorDeps {
  directory: EgressDirectory;
  counters: EgressCounterStore;
  now: () => number;
  log: Logger;
}

/** A source, or none: every source left is warming and at its cap; the mail waits for `waitUntil` (the next UTC hour, ms). */
export type Choice = { source: EgressSource } | { waitUntil: number; reason: string };

/** The reason a warm-up wait gives (events, `queue list`): the capped sources by name. */
export const warmupReason = (names: readonly string[]) =>
  `warm-up cap${names.length > 1 ? "s" : ""} of ${names.join(", ")} reached; next hour`;

export function createEgressSelector(deps: EgressSelectorDeps) {
  const turn = new Map<string, number>();
  /** Warming sources found at their cap, with the hour: not asked again before the next hour (one write fewer per message). */
  const full = new Map<string, number>();
  let pending = new Map<number, Record<string, number>>();
  let timer: ReturnType<typeof setTimeout> | null = null;

  function countWarm(source: string, hour: number) {
    const counts = pending.get(hour) ?? {};
    counts[source] = (counts[source] ?? 0) + 1;
    pending.set(hour, counts);
    timer ??= setTimeout(() => { timer = null; void flush(); }, FLUSH_MS);
  }

  async function flush() {
    const batch = pending;
    pending = new Map();
    for (const [hour, counts] of batch) {
      try { await deps.counters.addEgressSends(hour, counts); } catch (err) {
        deps.log.warn("could not write egress send counts", { error: String(err) });
      }
    }
  }

  return {
    /**
     * The source for one message of pool `pool` (or the source with address `sendingIp`, which the
     * caller checked exists at accept time; a source since removed falls back to the pool).
     */
    async choose(pool: string, sendingIp?: string): Promise<Choice> {
      const now = deps.now();
      const hour = hourOf(now);
      const named = sendingIp ? deps.directory.byAddress(sendingIp) : null;
      const sources = named ? [named] : deps.directory.pool(pool) ?? deps.directory.pool("default")!;
      const warm: EgressSource[] = [];
      const capped: string[] = [];
      for (const s of sources) {
        const cap = hourlyCap(warmupDay(s.warmupStart, now));
        if (cap === null) { warm.push(s); continue; }
        capped.push(s.name);
        if (full.get(s.name) === hour) continue;
        if (await deps.counters.takeEgressSlot(s.name, hour, cap)) return { source: s };
        full.set(s.name, hour);
      }
      if (warm.length === 0) return { waitUntil: hourStartMs(hour + 1), reason: warmupReason(capped) };
      const key = named ? `@${named.name}` : pool;
      const i = (turn.get(key) ?? 0) % warm.length;
      turn.set(key, i + 1);
      countWarm(warm[i]!.name, hour);
      return { source: warm[i]! };
    },
    /** Writes the counts not yet written (at stop). */
    async close() {
      if (timer) { clearTimeout(timer); timer = null; }
      await flush();
    },
  };
}

export type EgressSelector = ReturnType<typeof createEgressSelector>;

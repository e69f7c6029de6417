// The egress sources as they stand this hour: what `postern egress list` and the vendors' IP
// listings show (the sends counted in the store, so every node's sends are in it).
import type { EgressCounterStore } from "./counter-port.ts";
import type { EgressDirectory, EgressStatus } from "./directory.ts";
import { hourOf } from "./warmup-schedule.ts";

export function createEgressService(deps: { directory: EgressDirectory; counters: EgressCounterStore; now: () => number }) {
  return {
    directory: deps.directory,
    /** Every source with its pool, warm-up day, hourly cap and sends this UTC hour. */
    async list(): Promise<EgressStatus[]> {
      const now = deps.now();
      return deps.directory.status(now, await deps.counters.egressSends(hourOf(now)));
    },
  };
}

export type EgressService = ReturnType<typeof createEgressService>;

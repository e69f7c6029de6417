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

/** The egress gauges of /metrics (docs/egress.md); `gauge` is the metrics registry's. */
export function registerEgressMetrics(
  gauge: (name: string, help: string, read: () => Promise<Array<[Record<string, string>, number]>>) => void,
  egress: ReturnType<typeof createEgressService>,
) {
  gauge("postern_egress_hour_sent", "messages sent through each egress source this UTC hour, every node's (docs/egress.md)",
    async () => (await egress.list()).map((e) => [{ source: e.name, address: e.address, pool: e.pool ?? "" }, e.hour_sent]));
  gauge("postern_egress_hour_cap", "the warm-up hourly cap of each egress source warming up",
    async () => (await egress.list()).flatMap((e) => (e.hour_cap === null ? [] : [[{ source: e.name, address: e.address }, e.hour_cap] as [Record<string, string>, number]])));
}

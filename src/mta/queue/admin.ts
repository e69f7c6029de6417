// Queue administration over every zone: counts, the waiting rows, retry now, purge. One home for
// what the CLI (`postern queue …`) and the console do to the outbound queue.
import type { Store, StoredRecipient } from "../../store/store.ts";
import type { Recorder } from "../../core/recorder.ts";
import { purgedEvents } from "./policy.ts";

export type ZoneQueueStats = Awaited<ReturnType<ReturnType<Store["zone"]>["queueStats"]>>;

export function createQueueAdmin(deps: { store: Store; recorder: Recorder; now: () => number }) {
  const { store } = deps;
  const zones = () => store.zoneNames();
  return {
    /** Counts by state and the busiest destinations, per zone. */
    async stats(): Promise<Record<string, ZoneQueueStats>> {
      return Object.fromEntries(await Promise.all(zones().map(async (z) => [z, await store.zone(z).queueStats(deps.now())] as const)));
    },
    /** Recipients waiting for delivery, at most `limit` per zone. */
    async list(limit: number): Promise<StoredRecipient[]> {
      return (await Promise.all(zones().map((z) => store.zone(z).listQueue(limit)))).flat();
    },
    /** Makes a recipient (or every recipient of a message) due now; returns how many. */
    async retry(id: string): Promise<number> {
      let n = 0;
      for (const z of zones()) n += await store.zone(z).retryNow(id, deps.now());
      return n;
    },
    /** Fails every queued and deferred recipient not being attempted, with a failed event each. */
    async purge(): Promise<number> {
      let n = 0;
      for (const z of zones()) n += await deps.recorder.purge(z, (rows, messages) => purgedEvents(rows, messages, deps.now()));
      return n;
    },
  };
}

export type QueueAdmin = ReturnType<typeof createQueueAdmin>;

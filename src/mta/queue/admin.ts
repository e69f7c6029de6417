// Queue administration over every zone: counts, the waiting rows, retry now, purge. One home for
// what the CLI (`postern queue …`) and the console do to the outbound queue.
import type { Store, StoredMessage, StoredRecipient } from "../../core/store-port.ts";
import type { Recorder } from "../../core/recorder.ts";
import type { QueueDestination } from "../../core/queue-admin.ts";
import { purgedEvents } from "./policy.ts";
import { destinationView } from "./destination-view.ts";
import { BUILT_IN_AUTOMATION, BUILT_IN_PROVIDERS, DEFAULT_LIMITS, type Shaping } from "../shaping/rules.ts";

/** At most this many waiting recipients per zone are read to group them by destination. */
const SCAN_LIMIT = 5000;

export type ZoneQueueStats = Awaited<ReturnType<ReturnType<Store["zone"]>["queueStats"]>>;

/** The shaping the MTA runs with and [mta.routes]: how waiting keys no node has published are named (default: the built-in rules). */
export interface AdminShaping { shaping?: Shaping; routes?: Readonly<Record<string, string>> }

export function createQueueAdmin(deps: { store: Store; recorder: Recorder; now: () => number } & AdminShaping) {
  const { store } = deps;
  const shaping = deps.shaping ?? { defaults: DEFAULT_LIMITS, providers: BUILT_IN_PROVIDERS, automation: BUILT_IN_AUTOMATION };
  const zones = () => store.zoneNames();

  /** Waiting recipients for `destination` (every one when null) of messages `sender` sent (any when null). */
  async function waiting(sender: string | null, destination: string | null) {
    const out: { zone: string; row: StoredRecipient; message: StoredMessage }[] = [];
    for (const zone of zones()) {
      const z = store.zone(zone);
      const rows = (await z.listQueue(SCAN_LIMIT)).filter((row) => destination === null || row.rcptDomain === destination);
      // The messages' heads in one read: their content is not needed here.
      const messages = new Map((await z.getMessageHeads([...new Set(rows.map((r) => r.messageId))])).map((m) => [m.id, m] as const));
      for (const row of rows) {
        const message = messages.get(row.messageId);
        if (message && (sender === null || message.domain === sender)) out.push({ zone, row, message });
      }
    }
    return out;
  }

  return {
    /** Every destination: waiting, in flight, concurrency now and at most, suspension, last throttle reply. */
    destinations: () => destinationView({ store, shaping, routes: deps.routes ?? {}, now: deps.now }),
    /** Waiting recipients grouped by destination domain, busiest first (the console's queue page). */
    async byDestination(sender: string | null): Promise<QueueDestination[]> {
      const by = new Map<string, QueueDestination>();
      for (const { row, message } of await waiting(sender, null)) {
        const since = row.attempts === 0 ? Math.max(message.createdAt, row.nextAttemptAt) : message.createdAt;
        const d = by.get(row.rcptDomain) ?? { destination: row.rcptDomain, queued: 0, deferred: 0, oldestAt: message.createdAt,
          waitingSince: since, nextAttemptAt: row.nextAttemptAt, lastResponse: null };
        if (row.status === "deferred") d.deferred++; else d.queued++;
        d.oldestAt = Math.min(d.oldestAt, message.createdAt);
        d.waitingSince = Math.min(d.waitingSince, since);
        d.nextAttemptAt = Math.min(d.nextAttemptAt, row.nextAttemptAt);
        d.lastResponse = row.lastResponse ?? d.lastResponse;
        by.set(row.rcptDomain, d);
      }
      return [...by.values()].sort((a, b) => b.queued + b.deferred - (a.queued + a.deferred));
    },
    /** Makes every waiting recipient for `destination` (of `sender`'s messages) due now; returns how many. */
    async retryDestination(destination: string, sender: string | null): Promise<number> {
      let n = 0;
      for (const { zone, row } of await waiting(sender, destination)) n += await store.zone(zone).retryNow(row.id, deps.now());
      return n;
    },
    /** Fails every waiting recipient for `destination` (of `sender`'s messages), with a failed event each. */
    async purgeDestination(destination: string, sender: string | null): Promise<number> {
      const ids = new Map<string, string[]>();
      for (const { zone, row } of await waiting(sender, destination)) ids.set(zone, [...(ids.get(zone) ?? []), row.id]);
      let n = 0;
      for (const [zone, list] of ids) n += await deps.recorder.purge(zone, (rows, messages) => purgedEvents(rows, messages, deps.now()), list);
      return n;
    },
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

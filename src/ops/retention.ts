// Retention ([retention] events, messages, inbound; contract §10): a sweeper that asks each zone's
// store to delete one bounded batch at a time (store-port.ts RetentionStore), with a turn of the
// event loop between batches, so an accept waits for one short transaction at most. A pass runs
// every INTERVAL_MS (the contract asks for at least once a minute) and goes on while batches come
// back full, up to MAX_BATCHES_PER_PASS; what is left waits for the next pass. Deleted events are
// folded into the stats' rollups by core/stats/rollup.ts, in the delete's transaction.
import type { ZoneStore } from "../core/store-port.ts";
import type { AuditStore } from "../core/audit-port.ts";
import type { Logger } from "../log.ts";
import { foldStats } from "../core/stats/rollup.ts";

export interface RetentionWindows {
  /** Milliseconds each kind is kept; 0: forever. */
  events: number;
  messages: number;
  /** Received mail: its expiry is set when it is stored (inbound/receive); the sweep purges what expired. */
  inbound: number;
  /** The audit log (control data, not a zone's): its entries expire by age only. */
  audit?: number;
}

export interface RetentionDeps {
  zone(name: string): Pick<ZoneStore, "sweepEvents" | "sweepMessages" | "sweepOutbox" | "purgeInbound">;
  zoneNames(): string[];
  now(): number;
  log: Pick<Logger, "debug" | "warn">;
  windows: RetentionWindows;
  /** The control store's audit log: swept after the zones. */
  audit?: Pick<AuditStore, "expireAudit">;
  /** Pass interval (default one minute, shorter when a window is shorter). */
  intervalMs?: number;
  batch?: number;
}

const DEFAULT_INTERVAL_MS = 60_000;
const MIN_INTERVAL_MS = 1_000;
const BATCH = 200;
const MAX_BATCHES_PER_PASS = 200;

const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface RetentionTotals { events: number; messages: number; webhookPosts: number; inbound: number; audit: number }

export function createRetentionSweeper(deps: RetentionDeps) {
  const batch = deps.batch ?? BATCH;
  const shortest = Math.min(...[deps.windows.events, deps.windows.messages].filter((w) => w > 0));
  // A window of seconds (tests, the soak bench) is swept a few times within it.
  const intervalMs = deps.intervalMs ?? Math.min(DEFAULT_INTERVAL_MS, Math.max(MIN_INTERVAL_MS, Math.floor(shortest / 5)));
  /** Where each zone's message scan goes on from (a message id; "" = the start). */
  const cursors = new Map<string, string>();
  let timer: ReturnType<typeof setInterval> | null = null;
  let running: Promise<RetentionTotals> | null = null;
  let stopped = false;

  /** Runs `step` until it reports a short batch, the pass's budget is spent, or the sweeper stops. */
  async function repeat(step: () => Promise<boolean>) {
    for (let i = 0; i < MAX_BATCHES_PER_PASS && !stopped; i++) {
      if (!(await step())) return;
      await yieldTurn();
    }
  }

  async function sweepZone(z: string, totals: RetentionTotals) {
    const store = deps.zone(z);
    const now = deps.now();
    if (deps.windows.messages > 0) {
      const before = now - deps.windows.messages;
      await repeat(async () => {
        const r = await store.sweepMessages(before, batch, cursors.get(z) ?? "", foldStats);
        totals.messages += r.deleted;
        cursors.set(z, r.next ?? "");
        return r.next !== null;
      });
    }
    if (deps.windows.events > 0) {
      const before = now - deps.windows.events;
      await repeat(async () => {
        const n = await store.sweepEvents(before, batch, foldStats);
        totals.events += n;
        return n === batch;
      });
      // Finished webhook posts (the console's "webhook posts" of a message) go with the events they carried.
      await repeat(async () => {
        const n = await store.sweepOutbox(before, batch);
        totals.webhookPosts += n;
        return n === batch;
      });
    }
    totals.inbound += await store.purgeInbound(now);
  }

  async function sweepAudit(totals: RetentionTotals) {
    const window = deps.windows.audit ?? 0;
    if (!deps.audit || window <= 0) return;
    const before = deps.now() - window;
    await repeat(async () => {
      const n = await deps.audit!.expireAudit(before, batch);
      totals.audit += n;
      return n === batch;
    });
  }

  /** One pass over every zone; a pass already running is joined, not doubled. */
  function sweep(): Promise<RetentionTotals> {
    return (running ??= (async () => {
      const totals: RetentionTotals = { events: 0, messages: 0, webhookPosts: 0, inbound: 0, audit: 0 };
      for (const z of deps.zoneNames()) {
        try { await sweepZone(z, totals); }
        catch (e) { deps.log.warn("retention sweep failed", { zone: z, error: (e as Error).message }); }
      }
      await sweepAudit(totals).catch((e) => deps.log.warn("retention sweep failed", { audit: true, error: (e as Error).message }));
      if (totals.events || totals.messages || totals.webhookPosts || totals.inbound || totals.audit) deps.log.debug("retention swept", { ...totals });
      return totals;
    })().finally(() => { running = null; }));
  }

  return {
    intervalMs,
    sweep,
    start() {
      stopped = false;
      if (!timer) { timer = setInterval(() => void sweep(), intervalMs); void sweep(); }
    },
    /** Stops the timer and waits for a pass in flight (it ends after its current batch). */
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}

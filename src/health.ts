// What /healthz and /metrics report about the running server: queue depth, open connections,
// pending webhooks and the last errors.
import type { Store } from "./core/store-port.ts";
import type { Metrics } from "./metrics.ts";
import type { RecentErrors } from "./log.ts";
import type { DiskState } from "./core/disk-guard.ts";

export function createHealth(deps: { store: Store; now: () => number; zone: string; openConnections: () => number; recent: RecentErrors; metrics: Metrics;
  disk?: () => DiskState;
  /** The certificate's state ([tls]); absent without TLS. */
  tls?: () => unknown;
  /** Outbound DANE: mode, whether in force, and why (src/mta/delivery/dane-state.ts). */
  dane?: () => unknown }) {
  const { store } = deps;
  async function queueDepth(): Promise<number> {
    let n = 0;
    for (const z of store.zoneNames()) { const s = await store.zone(z).queueStats(deps.now()); n += s.queued + s.deferred; }
    return n;
  }
  async function webhooksPending(): Promise<number> {
    let n = 0;
    for (const z of store.zoneNames()) n += (await store.zone(z).webhookStats()).find((s) => s.status === "pending")?.count ?? 0;
    return n;
  }
  deps.metrics.gauge("postern_queue_depth", "recipients queued or deferred", async () => [[{}, await queueDepth()]]);
  deps.metrics.gauge("postern_webhooks_pending", "webhook POSTs waiting for acknowledgement", async () => [[{}, await webhooksPending()]]);
  deps.metrics.gauge("postern_smtp_connections", "outbound SMTP connections open", async () => [[{}, deps.openConnections()]]);
  // Low disk: "degraded" (new mail refused, delivery goes on) with the figures that say why.
  return async () => {
    const disk = deps.disk?.();
    return { status: disk && !disk.ok ? "degraded" : "ok", zone: deps.zone, ...(disk && { disk: { free_bytes: disk.free_bytes, min_free_bytes: disk.min_free_bytes } }),
      queue: await queueDepth(), connections: deps.openConnections(), webhooks_pending: await webhooksPending(), last_errors: deps.recent.list(),
      ...(deps.tls ? { tls: deps.tls() } : {}), ...(deps.dane ? { dane: deps.dane() } : {}) };
  };
}

// Posts outbox items to their targets until acknowledged. Each target (URL) has its own lane
// (lanes.ts): claims skip targets that are busy or backed off, POSTs run without waiting for each
// other, and a claim never holds more than a target's concurrency of its items. The item's format
// builds and signs the request at send time; egress is pinned and guarded. An item is retried on
// webhooks.retry until the lifetime ends (or the format calls a status final); items a dead
// target never got are given up in bulk, with the reason logged.
import type { ClaimLease, OutboxItem, Store, WebhookTarget, ZoneStore } from "../core/store-port.ts";
import type { Logger } from "../log.ts";
import { EgressError } from "../net/egress.ts";
import { redactUrl } from "../net/redact.ts";
import type { Outbound } from "./outbound.ts";
import { formatLifetimes, formatNamed } from "./registry.ts";
import { createLanes, LANE_DEPTH, type Outcome } from "./lanes.ts";

const CLAIM_BATCH = 200;
const EXPIRE_EVERY_MS = 5_000;
const STOP_GRACE_MS = 2_000;
/** The default of `webhooks.probe_interval`. */
const LANE_MAX_BACKOFF_MS = 5_000;
/** With nothing known to be due, the outbox is still claimed this often: retries come due, other nodes queue items. */
const CLAIM_POLL_MS = 500;

export interface WebhookDeliveryDeps {
  store: Store;
  now: () => number;
  log: Logger;
  outbound: Outbound;
  /** probe_interval: the longest a failing target's lane is backed off (default LANE_MAX_BACKOFF_MS). */
  config: { retry: number[]; lifetime: number; concurrency_per_target: number; probe_interval?: number };
  /** This node's claims on outbox items: renewed while they wait in a lane or post. */
  lease: ClaimLease;
  /** A POST finished: its target may take more. */
  onFree?: () => void;
}

export interface PostResult { ok: boolean; isFinal: boolean; error: string | null }

export function createWebhookDelivery(deps: WebhookDeliveryDeps) {
  /** Claimed items not yet finished, with their zone (their leases are renewed). */
  const held = new Map<string, string>();
  const retryStep = (n: number) => deps.config.retry[Math.min(n, deps.config.retry.length) - 1] ?? 60_000;
  // A failed target is probed at least every probe_interval (one POST), so that it is found
  // again within seconds of coming back; its items then go at once, whatever their own schedule.
  const maxBackoff = deps.config.probe_interval ?? LANE_MAX_BACKOFF_MS;
  const lanes = createLanes({ concurrency: deps.config.concurrency_per_target, now: deps.now,
    backoff: (n) => Math.min(retryStep(n), maxBackoff),
    onFree: () => { expectDue = true; deps.onFree?.(); }, onRecovered: (url) => void recovered(url),
    onError: (e) => deps.log.error("webhook delivery failed", { error: String(e) }) });
  let lastExpiry = 0;
  // A claim is a write transaction: while mail flows with no webhook configured, claiming on every
  // round (50 a second) cost more CPU than the fan-out. Claim when items were queued or a lane freed
  // up, and otherwise every CLAIM_POLL_MS.
  let expectDue = true;
  let lastClaim = 0;

  async function targetOf(id: string | null): Promise<WebhookTarget | null> {
    if (!id) return null;
    // The store's cached read (core/domain-read.ts): a change by any process counts at once.
    return (await deps.store.control.listWebhooks(null)).find((t) => t.id === id) ?? null;
  }

  const lifetimeOf = (format: string) => formatLifetimes().get(format) ?? deps.config.lifetime;

  async function post(item: OutboxItem): Promise<PostResult> {
    try {
      const format = formatNamed(item.format);
      const ctx = await deps.outbound.context({ url: item.url, domain: item.domain, target: await targetOf(item.targetId) });
      const { body, headers } = await format.request(JSON.parse(item.payload) as unknown[], ctx);
      const res = await ctx.send(item.url, { method: "POST", body, headers: { "content-type": "application/json", "user-agent": "postern-webhooks/1", ...headers } });
      if (res.ok) return { ok: true, isFinal: true, error: null };
      return { ok: false, isFinal: format.isFinal(res.status), error: `HTTP ${res.status}` };
    } catch (e) {
      return { ok: false, isFinal: e instanceof EgressError && e.code === "EGRESS_REFUSED", error: (e as Error).message ?? String(e) };
    }
  }

  async function deliver(zone: ZoneStore, item: OutboxItem): Promise<Outcome> {
    const r = await post(item);
    const attempts = item.attempts + 1;
    const now = deps.now();
    if (r.ok) { await zone.finishWebhook(item.id, "delivered", attempts, now, null, now); return "ok"; }
    const next = now + retryStep(attempts);
    if (r.isFinal || next > item.createdAt + lifetimeOf(item.format)) {
      const why = r.isFinal ? r.error : `lifetime ends before the next attempt; last error: ${r.error}`;
      deps.log.warn("webhook given up", { url: redactUrl(item.url), attempts, error: why });
      await zone.finishWebhook(item.id, r.isFinal && !r.error?.startsWith("refused") ? "rejected" : "expired", attempts, now, r.error, now);
      return r.isFinal ? "final" : "failed";
    }
    await zone.finishWebhook(item.id, "pending", attempts, next, r.error, now);
    return "failed";
  }

  async function recovered(url: string) {
    let n = 0;
    for (const name of deps.store.zoneNames()) n += await deps.store.zone(name).webhooksDueNow(url, deps.now());
    if (n) deps.log.info("webhook target answers again: its waiting POSTs are due now", { url: redactUrl(url), count: n });
    expectDue = true;
    deps.onFree?.();
  }

  /** Gives up, per target, items that a dead or backed-off target never took within their lifetime. */
  async function expire(zone: ZoneStore) {
    const now = deps.now();
    const own = [...formatLifetimes()];
    const runs = [...own.map(([name, ms]) => ({ ms, scope: { only: [name] }, why: `${name} lifetime` })),
      { ms: deps.config.lifetime, scope: { except: own.map(([name]) => name) }, why: "webhooks.lifetime" }];
    for (const run of runs) {
      for (const g of await zone.expireWebhooks(now, now - run.ms, run.scope)) {
        deps.log.warn(`webhooks given up: not delivered within the ${run.why}`, { url: redactUrl(g.url), count: g.count, lastError: g.lastError });
      }
    }
  }

  return {
    /** Claims due items of every target with a free slot and starts their POSTs; returns how many started. */
    async dispatch(): Promise<number> {
      let n = 0;
      const doExpire = deps.now() - lastExpiry >= EXPIRE_EVERY_MS;
      if (doExpire) lastExpiry = deps.now();
      if (!expectDue && !doExpire && !lanes.probing().length && deps.now() - lastClaim < CLAIM_POLL_MS) return 0;
      expectDue = false;
      lastClaim = deps.now();
      for (const name of deps.store.zoneNames()) {
        const zone = deps.store.zone(name);
        if (doExpire) await expire(zone);
        const items = await zone.claimWebhooks(deps.now(), CLAIM_BATCH, deps.lease, { perUrl: deps.config.concurrency_per_target * LANE_DEPTH, skipUrls: lanes.closed() });
        // A failed target with no due item still gets one POST per backoff: its earliest item, early.
        for (const url of lanes.probing()) {
          if (items.some((i) => i.url === url)) continue;
          const probe = await zone.claimWebhookProbe(url, deps.now(), deps.lease);
          if (probe) items.push(probe);
        }
        for (const item of items) {
          held.set(item.id, name);
          lanes.submit(item.url, {
            run: () => deliver(zone, item).finally(() => held.delete(item.id)),
            release: (at) => zone.finishWebhook(item.id, "pending", item.attempts, at, item.lastError, deps.now()).finally(() => held.delete(item.id)),
          });
        }
        n += items.length;
        if (items.length >= CLAIM_BATCH) expectDue = true;
      }
      return n;
    },
    /** Takes back this node's own items claimed before a restart: due at once (other nodes' wait for their lease). */
    async recover(): Promise<number> {
      let n = 0;
      for (const name of deps.store.zoneNames()) n += await deps.store.zone(name).releaseWebhookClaims(deps.now(), deps.lease.owner);
      if (n) deps.log.warn("took back webhook posts in flight before a restart", { count: n });
      return n;
    },
    /** Extends the leases of the items this node holds (called every third of the lease). */
    async renew(): Promise<void> {
      const byZone = new Map<string, string[]>();
      for (const [id, zone] of held) { const list = byZone.get(zone); if (list) list.push(id); else byZone.set(zone, [id]); }
      for (const [zone, ids] of byZone) await deps.store.zone(zone).renewWebhookClaims(ids, deps.now(), deps.lease);
    },
    /** Waits a moment for POSTs in flight; the rest are taken back at the next start. */
    drain: () => lanes.drain(STOP_GRACE_MS),
    lanes: () => lanes.state(),
    /** Items were queued or a target can take more: the next dispatch claims. */
    expectDue: () => { expectDue = true; },
  };
}

export type WebhookDelivery = ReturnType<typeof createWebhookDelivery>;

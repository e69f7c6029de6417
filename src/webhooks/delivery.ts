// Posts outbox items to their targets until acknowledged: the item's format builds and signs the
// request at send time, requests in flight are limited per URL, egress is pinned and guarded, and
// items are retried with backoff until the lifetime ends (or the format calls a status final).
import type { OutboxItem, Store, WebhookTarget, ZoneStore } from "../store/store.ts";
import type { Logger } from "../log.ts";
import { EgressError } from "../net/egress.ts";
import { redactUrl } from "../net/redact.ts";
import type { Outbound } from "./outbound.ts";
import { formatNamed } from "./registry.ts";

const LEASE_MS = 120_000;
const CLAIM_BATCH = 50;

export interface WebhookDeliveryDeps {
  store: Store;
  now: () => number;
  log: Logger;
  outbound: Outbound;
  config: { retry: number[]; lifetime: number; concurrency_per_target: number };
}

export interface PostResult { ok: boolean; isFinal: boolean; error: string | null }

export function createWebhookDelivery(deps: WebhookDeliveryDeps) {
  const inFlightPerUrl = new Map<string, number>();
  const targets = new Map<string, WebhookTarget | null>();

  async function targetOf(id: string | null): Promise<WebhookTarget | null> {
    if (!id) return null;
    if (!targets.has(id)) targets.set(id, (await deps.store.control.listWebhooks(null)).find((t) => t.id === id) ?? null);
    return targets.get(id) ?? null;
  }

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

  async function deliver(zone: ZoneStore, item: OutboxItem) {
    const r = await post(item);
    const attempts = item.attempts + 1;
    const now = deps.now();
    if (r.ok) return zone.finishWebhook(item.id, "delivered", attempts, now, null, now);
    const step = deps.config.retry[Math.min(attempts, deps.config.retry.length) - 1] ?? 60_000;
    const next = now + step;
    if (r.isFinal || next > item.createdAt + deps.config.lifetime) {
      deps.log.warn("webhook given up", { url: redactUrl(item.url), attempts, error: r.error });
      return zone.finishWebhook(item.id, r.isFinal && !r.error?.startsWith("refused") ? "rejected" : "expired", attempts, now, r.error, now);
    }
    return zone.finishWebhook(item.id, "pending", attempts, next, r.error, now);
  }

  return {
    /** Claims due items in every zone and posts them; resolves when this round is done. */
    async runOnce(): Promise<number> {
      const work: Promise<void>[] = [];
      for (const name of deps.store.zoneNames()) {
        const zone = deps.store.zone(name);
        for (const item of await zone.claimWebhooks(deps.now(), CLAIM_BATCH, LEASE_MS)) {
          const busy = inFlightPerUrl.get(item.url) ?? 0;
          if (busy >= deps.config.concurrency_per_target) {
            await zone.finishWebhook(item.id, "pending", item.attempts, deps.now(), item.lastError, deps.now());
            continue;
          }
          inFlightPerUrl.set(item.url, busy + 1);
          work.push(deliver(zone, item).catch((e) => deps.log.error("webhook delivery failed", { error: String(e) }))
            .finally(() => {
              const left = (inFlightPerUrl.get(item.url) ?? 1) - 1;
              if (left > 0) inFlightPerUrl.set(item.url, left); else inFlightPerUrl.delete(item.url);
            }));
        }
      }
      await Promise.all(work);
      return work.length;
    },
    invalidate: () => targets.clear(),
  };
}

export type WebhookDelivery = ReturnType<typeof createWebhookDelivery>;

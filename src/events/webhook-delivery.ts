// Posts outbox items to their targets until acknowledged: formats and signs each at send time,
// limits requests in flight per URL, guards egress, and retries with backoff until the lifetime
// ends (Mailgun's 406 means "rejected, do not retry").
import type { OutboxItem, Store, WebhookTarget, ZoneStore } from "../store/store.ts";
import type { Resolver } from "../dns.ts";
import type { Logger } from "../log.ts";
import type { EventContext } from "./context.ts";
import { guardedFetch } from "./egress.ts";
import { mailgunBody } from "./formats/mailgun.ts";
import { sendgridRequest } from "./formats/sendgrid.ts";
import { sparkpostRequest, type SparkpostAuth } from "./formats/sparkpost.ts";
import { fetchOauthToken, type TokenCache } from "./oauth.ts";

const LEASE_MS = 120_000;
const CLAIM_BATCH = 50;

export interface WebhookDeliveryDeps {
  store: Store;
  resolver: Resolver;
  now: () => number;
  log: Logger;
  signingKey: string;
  eventWebhookKey: string;
  config: { allow_private: boolean; retry: number[]; lifetime: number; timeout: number; concurrency_per_target: number };
}

export function createWebhookDelivery(deps: WebhookDeliveryDeps) {
  const inFlightPerUrl = new Map<string, number>();
  const targets = new Map<string, WebhookTarget | null>();
  const tokens: TokenCache = new Map();
  const egress = { allowPrivate: deps.config.allow_private, resolver: deps.resolver, timeoutMs: deps.config.timeout };

  async function targetOf(id: string | null): Promise<WebhookTarget | null> {
    if (!id) return null;
    if (!targets.has(id)) targets.set(id, (await deps.store.control.listWebhooks(null)).find((t) => t.id === id) ?? null);
    return targets.get(id) ?? null;
  }

  async function request(item: OutboxItem): Promise<{ body: string; headers: Record<string, string> }> {
    const batch = JSON.parse(item.payload) as EventContext[];
    const now = deps.now();
    if (item.format === "sendgrid") return sendgridRequest(batch, deps.eventWebhookKey, now);
    if (item.format === "sparkpost") {
      const auth = { ...((await targetOf(item.targetId))?.extra ?? {}) } as SparkpostAuth & { auth_request_details?: { url: string; body?: Record<string, string> } };
      if (auth.auth_type === "oauth2" && auth.auth_request_details) {
        auth.auth_credentials = { access_token: await fetchOauthToken(auth.auth_request_details, { ...egress, now, cache: tokens }) };
      }
      return sparkpostRequest(batch, auth);
    }
    return { body: mailgunBody(batch[0]!, deps.signingKey, now), headers: {} };
  }

  async function post(item: OutboxItem): Promise<{ ok: boolean; isFinal: boolean; error: string | null }> {
    try {
      const { body, headers } = await request(item);
      const res = await guardedFetch(item.url, { method: "POST", body,
        headers: { "content-type": "application/json", "user-agent": "postern-webhooks/1", ...headers } }, egress);
      await res.arrayBuffer().catch(() => undefined);
      if (res.status >= 200 && res.status < 300) return { ok: true, isFinal: true, error: null };
      const isFinal = res.status === 406 && (item.format === "mailgun" || item.format === "native");
      return { ok: false, isFinal, error: `HTTP ${res.status}` };
    } catch (e) {
      const isRefused = (e as { code?: string }).code === "EGRESS_REFUSED";
      return { ok: false, isFinal: isRefused, error: (e as Error).message ?? String(e) };
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
      deps.log.warn("webhook given up", { url: item.url, attempts, error: r.error });
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

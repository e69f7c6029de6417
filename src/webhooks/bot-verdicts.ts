// What the native bot API keeps: results of single-interaction requests (per domain, an hour, in
// the domain's zone store) and verdict pushes to a webhook_url, queued as outbox items of the bot
// format so that they are retried like every webhook and survive a restart.
import type { Domain } from "../core/model.ts";
import { newId } from "../core/ids.ts";
import type { Store, ZoneStore } from "../core/store-port.ts";
import { bot } from "./formats/bot.ts";
import { createSubscribers, type OutboxSubscriber } from "../core/subscribers.ts";

export const BOT_RESULT_TTL_MS = 3_600_000;

export function createBotVerdicts(deps: { store: Store; now: () => number }) {
  const subscribers = createSubscribers<OutboxSubscriber>();
  // A domain of a zone another node holds has no store here: its bot state stays in the first local zone.
  const zoneOf = (d: Pick<Domain, "zone">): ZoneStore =>
    deps.store.zone(deps.store.zoneNames().includes(d.zone) ? d.zone : deps.store.zoneNames()[0]!);
  return {
    /** Registers who hears of pushes queued (the webhook pipeline). */
    subscribe: subscribers.subscribe,
    async saveResult(d: Pick<Domain, "name" | "zone">, requestId: string, body: unknown): Promise<void> {
      const now = deps.now();
      await zoneOf(d).putBotResult({ domain: d.name, requestId, body: JSON.stringify(body), createdAt: now }, now - BOT_RESULT_TTL_MS);
    },
    /** The result of `requestId` for this domain only, or null when unknown or expired. */
    async getResult(d: Pick<Domain, "name" | "zone">, requestId: string): Promise<unknown | null> {
      const r = await zoneOf(d).getBotResult(d.name, requestId);
      return r && deps.now() - r.createdAt <= BOT_RESULT_TTL_MS ? JSON.parse(r.body) : null;
    },
    /** Queues one signed push of `payload` ({batch, events}) to `url`; durable when this resolves. */
    async push(d: Pick<Domain, "name" | "zone">, url: string, payload: Record<string, unknown>): Promise<void> {
      const now = deps.now();
      await zoneOf(d).enqueueOutbox([{ id: newId(now), url, format: bot.name, targetId: null, domain: d.name, payload: JSON.stringify([payload]),
        attempts: 0, nextAttemptAt: now, status: "pending", lastError: null, createdAt: now }]);
      subscribers.each((s) => s.outboxQueued());
    },
  };
}

export type BotVerdicts = ReturnType<typeof createBotVerdicts>;

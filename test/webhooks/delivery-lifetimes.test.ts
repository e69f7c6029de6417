// Each inbound format keeps retrying for its vendor's documented window (Mailgun routes and
// SparkPost relay webhooks 8 h, SendGrid Inbound Parse 3 days); event formats use [webhooks] lifetime.
import { expect, test } from "bun:test";
import { openSqliteStore } from "../../src/store/sqlite/index.ts";
import { createWebhookDelivery } from "../../src/webhooks/delivery.ts";
import { createLogger } from "../../src/log.ts";
import type { Outbound } from "../../src/webhooks/outbound.ts";
import type { OutboxItem } from "../../src/core/store-port.ts";

const T0 = 1_800_000_000_000;
const HOUR = 3_600_000;

const item = (format: string): OutboxItem => ({ id: `i-${format}`, url: `http://127.0.0.1:9/${format}`, format, targetId: null, domain: "a.test",
  payload: "[]", attempts: 3, nextAttemptAt: T0 + 30 * 86_400_000, status: "pending", lastError: "HTTP 500", createdAt: T0 });

test("unacknowledged posts are given up at their format's lifetime", async () => {
  const store = openSqliteStore(":memory:", ["us"]);
  const zone = store.zone("us");
  await zone.enqueueOutbox(["mailgun-route", "mailgun-store", "sparkpost-relay", "sendgrid-parse", "mailgun"].map(item));
  let now = T0;
  // Nothing is claimed (every item is due in a month): only the bulk expiry runs.
  const delivery = createWebhookDelivery({ store, now: () => now, log: createLogger({ level: "silent" }), outbound: {} as Outbound,
    config: { retry: [60_000], lifetime: 26 * HOUR, concurrency_per_target: 1 }, lease: { owner: "n1", leaseMs: 60_000 } });
  const left = async () => (await zone.webhookStats()).find((s) => s.status === "pending")?.count ?? 0;
  const at = async (t: number) => { now = t; await delivery.dispatch(); await Bun.sleep(0); return left(); };

  expect(await at(T0 + 7.9 * HOUR)).toBe(5);
  expect(await at(T0 + 8.1 * HOUR + 10_000)).toBe(2); // Mailgun routes (forward, store notify) and relay webhooks: 8 hours
  expect(await at(T0 + 26.1 * HOUR + 20_000)).toBe(1); // event webhooks: [webhooks] lifetime
  expect(await at(T0 + 71.9 * HOUR + 30_000)).toBe(1); // Inbound Parse: three days
  expect(await at(T0 + 72.1 * HOUR + 40_000)).toBe(0);
  await store.close();
});

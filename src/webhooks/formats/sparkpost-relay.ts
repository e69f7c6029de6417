// SparkPost relay webhooks: a JSON batch of msys.relay_message with the webhook's auth token.
import type { WebhookFormat } from "../format.ts";
import { relayBatch, relayMessage, type RelayWebhook } from "../inbound/sparkpost.ts";
import { inboundFormat } from "./inbound-common.ts";

export const sparkpostRelay: WebhookFormat = { lifetimeMs: 8 * 3_600_000, ...inboundFormat("sparkpost-relay", (m) => {
  const o = m.item.options ?? {};
  const hook: RelayWebhook = { id: m.item.ruleId, name: String(o.name ?? ""), target: m.item.url, authToken: String(o.authToken ?? ""),
    matchDomain: String(o.matchDomain ?? ""), customerId: "1" };
  return relayBatch([relayMessage(m.stored.envelope, m.mail, m.stored.raw, m.item.recipient, hook)], hook);
}) };

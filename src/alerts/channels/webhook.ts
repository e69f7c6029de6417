// The webhook channel: each notice POSTed as {"alert": {...}, "signature": {timestamp, token,
// signature}} to [alerts] webhook and the rule's own URLs, signed exactly as the native webhooks are
// (hex HMAC-SHA256 of timestamp + token with the account's webhook_signing_key: webhooks/signing.ts).
// A failed POST is tried again after each of `retry` (stopped early when the service stops).
import type { Logger } from "../../log.ts";
import type { OutboundRequest, PinnedResponse } from "../../net/pinned-request.ts";
import { hmacSignNow } from "../../webhooks/signing.ts";
import type { AlertChannel, AlertNotice } from "../notice.ts";
import type { Rule } from "../rules.ts";

export interface WebhookChannelDeps {
  url: string;
  signingKey: string;
  /** The pinned outbound request (egress policy and timeout of [webhooks]). */
  send: (url: string, init: OutboundRequest) => Promise<PinnedResponse>;
  now: () => number;
  log: Logger;
  retry?: number[];
  /** True once the server is stopping: no more retries. */
  stopped?: () => boolean;
}

export function alertBody(notice: AlertNotice, signingKey: string, now: number) {
  return { alert: notice, signature: hmacSignNow(signingKey, now) };
}

export function createWebhookChannel(deps: WebhookChannelDeps): AlertChannel {
  const retry = deps.retry ?? [5_000, 30_000, 120_000];
  async function post(url: string, notice: AlertNotice) {
    for (let attempt = 0; ; attempt++) {
      let why: string;
      try {
        const r = await deps.send(url, { method: "POST", body: JSON.stringify(alertBody(notice, deps.signingKey, deps.now())),
          headers: { "content-type": "application/json", "user-agent": "postern-alerts" } });
        if (r.ok) return;
        why = `HTTP ${r.status}`;
      } catch (e) {
        why = e instanceof Error ? e.message : String(e);
      }
      if (attempt >= retry.length || deps.stopped?.()) {
        deps.log.warn("alert webhook not delivered", { url, alert: notice.id, state: notice.state, error: why });
        return;
      }
      await Bun.sleep(retry[attempt]!);
    }
  }
  return {
    async deliver(notice: AlertNotice, rule: Rule) {
      const urls = [...new Set([deps.url, ...rule.webhooks].filter(Boolean))];
      await Promise.all(urls.map((u) => post(u, notice)));
    },
  };
}

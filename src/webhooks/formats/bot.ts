// Bot-detection verdicts of the native bot API, pushed to the request's webhook_url: one POST per
// batch, `{batch, events, signature}` with Mailgun's HMAC over the decimal timestamp + token (the
// timestamp an integer, as the bot spec has it). Queued as outbox items, so retried like every
// webhook and kept through a restart; never fanned out from message events.
import type { WebhookFormat } from "../format.ts";
import { hmacSignNow } from "../signing.ts";

function signed(payload: unknown, ctx: { signingKey: string; now: number }): string {
  const sig = hmacSignNow(ctx.signingKey, ctx.now);
  return JSON.stringify({ ...(payload as Record<string, unknown>), signature: { ...sig, timestamp: Number(sig.timestamp) } });
}

const samplePayload = (now: number) => ({
  batch: { batch_id: "sample", timeQueued: Math.floor(now / 1000) },
  events: [{ event_id: "sample-1", ip: "192.0.2.80", uas: "Mozilla/5.0", action: "click", is_bot: false }],
});

export const bot: WebhookFormat = {
  name: "bot",
  batchSize: 1,
  callbackSources: [],
  subscribes: () => false,
  request: async (batch, ctx) => ({ body: signed(batch[0], ctx), headers: {} }),
  isFinal: () => false,
  sample: (_type, ctx) => JSON.parse(signed(samplePayload(ctx.now), ctx)),
  ping: (url, ctx, message) => ctx.send(url, { body: signed(message ?? samplePayload(ctx.now), ctx), headers: { "content-type": "application/json" } }),
};

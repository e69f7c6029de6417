// The native API's webhook format: Mailgun's wire shape and signature (one event per POST), with
// the native samples (an array of one signed item, the signature's timestamp a number) and the
// check POST of one signed sample that webhook creation makes.
import type { WebhookFormat } from "../format.ts";
import { hmacSign } from "../signing.ts";
import { mailgunIsFinal, mailgunRequest, mailgunSubscribes } from "./mailgun.ts";
import { sampleEventData } from "./mailgun-sample.ts";

function sampleItem(type: string, ctx: { now: number; domain: string; signingKey: string }) {
  const event = sampleEventData(type, ctx.domain, ctx.now);
  const sig = hmacSign(ctx.signingKey, String(event.timestamp));
  return { "event-data": event, signature: { ...sig, timestamp: event.timestamp } };
}

export const native: WebhookFormat = {
  name: "native",
  batchSize: 1,
  callbackSources: [],
  subscribes: mailgunSubscribes,
  request: mailgunRequest,
  isFinal: mailgunIsFinal,
  sample: (type, ctx) => [sampleItem(type, ctx)],
  ping: (url, ctx, message) => ctx.send(url, { body: JSON.stringify(message ?? sampleItem("delivered", ctx)),
    headers: { "content-type": "application/json", "user-agent": "postern-webhook-check" } }),
};

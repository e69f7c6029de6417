// Account notices (core/notice.ts: blocklist listings) as native webhooks post them: the native
// shape and signature, `{"signature":{timestamp,token,signature},"event-data":{event,…}}`, signed
// with the account's key for account-wide targets and the domain's for a domain's own.
import type { WebhookFormat } from "../format.ts";
import { hmacSignNow } from "../signing.ts";
import { mailgunIsFinal } from "./mailgun.ts";

const json = { "content-type": "application/json" };

function sampleNotice(type: string, nowMs: number, domain: string) {
  const ip = type.startsWith("ip_");
  return { event: type, id: `sample-${type}-${Math.floor(nowMs / 1000)}`, timestamp: Math.floor(nowMs / 1000),
    subject: ip ? "192.0.2.10" : domain || "example.com", zone: ip ? "zen.spamhaus.org" : "dbl.spamhaus.org", answer: type.endsWith("_listed") ? "127.0.0.2" : "",
    ...(ip ? {} : { domain: domain || "example.com" }) };
}

export const notice: WebhookFormat = {
  name: "notice",
  batchSize: 1,
  callbackSources: [],
  // Posted by the notice poster to the targets it chose; never part of a message's fan-out.
  subscribes: () => false,
  request: async (batch, ctx) => ({ body: JSON.stringify({ signature: hmacSignNow(ctx.signingKey, ctx.now), "event-data": batch[0] }), headers: json }),
  isFinal: mailgunIsFinal,
  sample: (type, ctx) => [{ signature: hmacSignNow(ctx.signingKey, ctx.now), "event-data": sampleNotice(type, ctx.now, ctx.domain) }],
  ping: (url, ctx, message) => ctx.send(url, { body: JSON.stringify(message ?? { signature: hmacSignNow(ctx.signingKey, ctx.now), "event-data": sampleNotice("ip_listed", ctx.now, ctx.domain) }),
    headers: { ...json, "user-agent": "postern-webhook-check" } }),
};

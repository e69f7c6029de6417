// Mailgun routes' posts: forward("https://…") gets the parsed message (raw MIME when the URL ends
// in "mime"), store(notify="https://…") the stored message's fields and URL. Signed with the
// account-wide HMAC key of the domain's tenant (routes are a tenant's); a 406 answer means
// "rejected, do not retry".
// Mailgun retries any other answer "during 8 hours" (documentation.mailgun.com, Webhooks >
// Automatic Retries), routes' forwards and store notifications included.
import type { BuiltRequest, FormatContext, WebhookFormat } from "../format.ts";
import { hmacSignNow } from "../signing.ts";
import { mailgunForward, mailgunStoreNotify } from "../inbound/mailgun.ts";
import { inboundFormat, messageUrl, type LoadedInbound } from "./inbound-common.ts";

const HOUR = 3_600_000;
const LIFETIME_MS = 8 * HOUR;

const sign = (ctx: FormatContext) => hmacSignNow(ctx.accountSigningKey, ctx.now);

export const mailgunRoute: WebhookFormat = { lifetimeMs: LIFETIME_MS, ...inboundFormat("mailgun-route", (m: LoadedInbound, ctx): Promise<BuiltRequest> =>
  mailgunForward(m.stored.envelope, m.mail, m.stored.raw, m.item.recipient, m.item.url, sign(ctx)), (status) => status === 406) };

export const mailgunStore: WebhookFormat = { lifetimeMs: LIFETIME_MS, ...inboundFormat("mailgun-store", (m: LoadedInbound, ctx): Promise<BuiltRequest> =>
  mailgunStoreNotify(m.stored.envelope, m.mail, m.item.recipient, messageUrl(ctx, m.stored), sign(ctx)), (status) => status === 406) };

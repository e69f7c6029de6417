// Mailgun routes' posts: forward("https://…") gets the parsed message (raw MIME when the URL ends
// in "mime"), store(notify="https://…") the stored message's fields and URL. Signed with the
// account's HMAC key (routes are account-wide); a 406 answer means "rejected, do not retry".
import type { BuiltRequest, FormatContext, WebhookFormat } from "../format.ts";
import { hmacSignNow } from "../signing.ts";
import { mailgunForward, mailgunStoreNotify } from "../inbound/mailgun.ts";
import { inboundFormat, messageUrl, type LoadedInbound } from "./inbound-common.ts";

const sign = (ctx: FormatContext) => hmacSignNow(ctx.accountSigningKey, ctx.now);

export const mailgunRoute: WebhookFormat = inboundFormat("mailgun-route", (m: LoadedInbound, ctx): Promise<BuiltRequest> =>
  mailgunForward(m.stored.envelope, m.mail, m.stored.raw, m.item.recipient, m.item.url, sign(ctx)), (status) => status === 406);

export const mailgunStore: WebhookFormat = inboundFormat("mailgun-store", (m: LoadedInbound, ctx): Promise<BuiltRequest> =>
  mailgunStoreNotify(m.stored.envelope, m.mail, m.item.recipient, messageUrl(ctx, m.stored), sign(ctx)), (status) => status === 406);

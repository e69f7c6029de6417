// SendGrid Inbound Parse posts: multipart, parsed or raw as the hostname's setting said when the
// message arrived. "Messages that cannot be delivered after 3 days will be dropped" (SendGrid's
// Inbound Parse documentation): every non-2xx answer is retried for three days.
import type { WebhookFormat } from "../format.ts";
import { sendgridParse as parsePost } from "../inbound/sendgrid.ts";
import { inboundFormat } from "./inbound-common.ts";

export const sendgridParse: WebhookFormat = { lifetimeMs: 3 * 86_400_000, ...inboundFormat("sendgrid-parse", async (m, ctx) => {
  const o = m.item.options ?? {};
  // Checked at post time, so a spamd that was down when the message came still scores a retry.
  const verdict = o.spamCheck ? await ctx.spamCheck(m.stored.raw) : null;
  return parsePost(m.stored.envelope, m.mail, m.stored.raw, { hostname: String(o.hostname ?? ""), url: m.item.url,
    spamCheck: Boolean(o.spamCheck), sendRaw: Boolean(o.sendRaw) }, verdict && { score: verdict.scoreText, report: verdict.report });
}) };

// SparkPost's event shape: `{"msys":{"<category>":{...}}}` with string-typed fields.
import { isDrop, type MessageEvent } from "../../core/model.ts";
import { reportedCode, reportedDescription } from "./reported.ts";
import { seconds, type EventContext } from "../context.ts";
import { classOf } from "./bounce-fields.ts";

/** SparkPost's category and type for an event. */
export function sparkpostType(e: MessageEvent): { category: string; type: string } {
  switch (e.type) {
    case "accepted": return { category: "message_event", type: "injection" };
    case "delivered": return { category: "message_event", type: "delivery" };
    case "deferred": return { category: "message_event", type: "delay" };
    case "failed":
      if (e.severity === "temporary") return { category: "message_event", type: "delay" };
      return { category: "message_event", type: isDrop(e) ? "policy_rejection" : "bounce" };
    case "rejected": return { category: "gen_event", type: "generation_rejection" };
    case "complained": return { category: "message_event", type: "spam_complaint" };
    case "opened": return { category: "track_event", type: "open" };
    case "clicked": return { category: "track_event", type: "click" };
    case "unsubscribed": return { category: "unsubscribe_event", type: e.url === "list-unsubscribe" ? "list_unsubscribe" : "link_unsubscribe" };
  }
}

/** SparkPost's bounce_class: the event's verdict from core/bounce (see bounce-fields.ts). */
export const bounceClass = (e: MessageEvent): string => String(classOf(e));

export function sparkpostEvent(ctx: EventContext): Record<string, unknown> {
  const e = ctx.event;
  const { category, type } = sparkpostType(e);
  const body: Record<string, unknown> = {
    type, event_id: e.id, timestamp: String(seconds(e.timestamp)), message_id: ctx.message?.id ?? e.messageId,
    transmission_id: ctx.message?.sendId ?? ctx.message?.id ?? e.messageId, rcpt_to: e.recipient, raw_rcpt_to: e.recipient,
    recipient_domain: e.recipient.slice(e.recipient.lastIndexOf("@") + 1), rcpt_meta: e.metadata, rcpt_tags: e.tags,
    friendly_from: ctx.message?.from ?? "", subject: ctx.message?.subject ?? "", customer_id: "1", subaccount_id: String(ctx.tenant ?? 0),
    msg_size: String(ctx.message?.size ?? 0), injection_time: new Date(ctx.message?.createdAt ?? e.timestamp).toISOString(),
    ...(ctx.message?.campaignId ? { campaign_id: ctx.message.campaignId } : {}),
    // The pool the attempt went out through (else the one the message asked for) and its source address.
    ...(e.ipPool || ctx.message?.ipPool ? { ip_pool: e.ipPool || ctx.message?.ipPool } : {}), ...(e.sendingIp ? { sending_ip: e.sendingIp } : {}),
  };
  if (category === "message_event") { body.delv_method = "esmtp"; body.ip_address = e.mx ?? ""; }
  if (type === "bounce" || type === "delay" || type === "policy_rejection") {
    body.bounce_class = bounceClass(e);
    body.error_code = String(reportedCode(e) ?? "");
    body.reason = reportedDescription(e) ?? "";
    body.raw_reason = reportedDescription(e) ?? "";
  }
  if (type === "spam_complaint") body.fbtype = e.description ?? "abuse";
  if (category === "track_event" || category === "unsubscribe_event") {
    body.ip_address = e.ip ?? "";
    body.user_agent = e.userAgent ?? "";
    if (e.url && e.url !== "list-unsubscribe") body.target_link_url = e.url;
    if (e.isBot !== undefined) { body.is_bot = e.isBot; body.bot_reasons = e.botReasons ?? []; }
  }
  return { msys: { [category]: body } };
}

// Mailgun's webhook format (the native one shares its wire shape): one POST per event,
// {"signature":{timestamp,token,signature}, "event-data":{...}}, signed with
// HMAC-SHA256(webhook signing key, timestamp + token) in lowercase hex.
import type { MessageEvent } from "../../core/model.ts";
import type { WebhookTarget } from "../../core/store-port.ts";
import { bareMessageId, type EventContext } from "../context.ts";
import type { FormatContext, WebhookFormat } from "../format.ts";
import { hmacSignNow } from "../signing.ts";
import { sampleEventData } from "./mailgun-sample.ts";
import { mailgunBounceType, mailgunReason } from "./bounce-fields.ts";
import { reportedCode, reportedDescription } from "./reported.ts";

/** The Mailgun webhook id of an event: permanent_fail / temporary_fail for failures. */
export function mailgunWebhookId(e: MessageEvent): string {
  if (e.type === "failed") return e.severity === "temporary" ? "temporary_fail" : "permanent_fail";
  if (e.type === "deferred") return "temporary_fail";
  return e.type;
}

const MAILGUN_EVENT: Partial<Record<MessageEvent["type"], string>> = { deferred: "failed" };

export function mailgunEventData(ctx: EventContext): Record<string, unknown> {
  const e = ctx.event;
  const data: Record<string, unknown> = {
    event: MAILGUN_EVENT[e.type] ?? e.type, id: e.id, timestamp: e.timestamp / 1000,
    "log-level": e.type === "failed" ? "error" : e.type === "deferred" ? "warn" : "info",
    recipient: e.recipient, "recipient-domain": e.recipient.slice(e.recipient.lastIndexOf("@") + 1),
    tags: e.tags, campaigns: [], "user-variables": e.metadata,
    message: { headers: { "message-id": bareMessageId(ctx.message?.messageIdHeader), from: ctx.message?.from ?? "", to: e.recipient,
      subject: ctx.message?.subject ?? "" }, attachments: [], size: ctx.message?.size ?? 0 },
    flags: { "is-test-mode": ctx.message?.isTest ?? false, "is-authenticated": true, "is-routed": false, "is-system-test": false },
  };
  if (e.type === "failed" || e.type === "deferred") {
    data.severity = e.severity ?? (e.type === "deferred" ? "temporary" : "permanent");
    data.reason = !e.reason && e.description?.startsWith("gave up") ? "old" : mailgunReason(e);
  }
  if (e.type === "delivered" || e.type === "failed" || e.type === "deferred") {
    data["delivery-status"] = { code: reportedCode(e) ?? 0, "enhanced-code": e.enhancedCode ?? "", message: reportedDescription(e) ?? "", description: "",
      "mx-host": e.mx ?? "", "attempt-no": e.attempt ?? 1, tls: typeof e.tls === "object" ? e.tls.version !== "" : Boolean(e.tls),
      ...(e.type === "failed" ? { "bounce-type": mailgunBounceType(e) } : {}) };
    data.envelope = { transport: "smtp", targets: e.recipient, sender: ctx.message?.from ?? "", ...(e.sendingIp ? { "sending-ip": e.sendingIp } : {}) };
  }
  if (e.type === "opened" || e.type === "clicked" || e.type === "unsubscribed") {
    data.ip = e.ip ?? "";
    data["client-info"] = { "user-agent": e.userAgent ?? "", bot: e.isBot ? "generic" : "", "client-type": e.isBot ? "robot" : "unknown" };
    if (e.isBot !== undefined) data["bot-detection"] = { "is-bot": e.isBot, reasons: e.botReasons ?? [] };
    if (e.url) data.url = e.url;
  }
  return data;
}

const ALIASES: Record<string, string> = { unsubscribe: "unsubscribed", open: "opened", click: "clicked", bounce: "permanent_fail" };

/**
 * Mailgun and native targets keep the vendor's webhook id (permanent_fail, clicked...) in extra
 * and match on it; older targets carry a list of ids in `events` (empty = all).
 */
export function mailgunSubscribes(target: WebhookTarget, event: MessageEvent): boolean {
  const id = mailgunWebhookId(event);
  const vendorId = target.extra.mailgunId ?? target.extra.webhookType;
  if (typeof vendorId === "string" && vendorId) return (ALIASES[vendorId] ?? vendorId) === id;
  if (target.events.length === 0) return true;
  return target.events.some((e) => (ALIASES[e] ?? e) === id || (e === "failed" && id.endsWith("_fail")));
}

/** One event per POST: `{signature, event-data}` signed with the domain's (or installation's) key. */
export async function mailgunRequest(batch: unknown[], ctx: FormatContext) {
  const body = { signature: hmacSignNow(ctx.signingKey, ctx.now), "event-data": mailgunEventData(batch[0] as EventContext) };
  return { body: JSON.stringify(body), headers: {} };
}

/** Mailgun answers 406 for "rejected, do not retry". */
export const mailgunIsFinal = (status: number) => status === 406;

export const mailgun: WebhookFormat = {
  name: "mailgun",
  batchSize: 1,
  callbackSources: ["mailgun", "native"],
  subscribes: mailgunSubscribes,
  request: mailgunRequest,
  isFinal: mailgunIsFinal,
  sample: (type, ctx) => ({ signature: hmacSignNow(ctx.signingKey, ctx.now), "event-data": sampleEventData(type, ctx.domain, ctx.now) }),
  ping: (url, ctx, message) => ctx.send(url, { body: JSON.stringify(message ?? mailgun.sample("delivered", ctx)),
    headers: { "content-type": "application/json", "user-agent": "postern-webhook-check" } }),
};

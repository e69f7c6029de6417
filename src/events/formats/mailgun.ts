// Mailgun's webhook format (also the native one): one POST per event,
// {"signature":{timestamp,token,signature}, "event-data":{...}}, signed with
// HMAC-SHA256(webhook signing key, timestamp + token) in lowercase hex.
import { createHmac, randomBytes } from "node:crypto";
import type { MessageEvent } from "../../core/model.ts";
import { bareMessageId, type EventContext } from "../context.ts";

const TOKEN_BYTES = 25; // 50 hex characters, as Mailgun's tokens

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
    data.reason = e.reason ?? (e.code === 605 ? "suppress-bounce" : e.description?.startsWith("gave up") ? "old" : "generic");
  }
  if (e.type === "delivered" || e.type === "failed" || e.type === "deferred") {
    data["delivery-status"] = { code: e.code ?? 0, "enhanced-code": e.enhancedCode ?? "", message: e.description ?? "", description: "",
      "mx-host": e.mx ?? "", "attempt-no": e.attempt ?? 1, tls: e.tls ?? false };
    data.envelope = { transport: "smtp", targets: e.recipient, sender: ctx.message?.from ?? "" };
  }
  if (e.type === "opened" || e.type === "clicked" || e.type === "unsubscribed") {
    data.ip = e.ip ?? "";
    data["client-info"] = { "user-agent": e.userAgent ?? "", bot: e.isBot ? "generic" : "", "client-type": e.isBot ? "robot" : "unknown" };
    if (e.isBot !== undefined) data["bot-detection"] = { "is-bot": e.isBot, reasons: e.botReasons ?? [] };
    if (e.url) data.url = e.url;
  }
  return data;
}

/** Signs like Mailgun: timestamp as a string of seconds, a random token, the hex HMAC. */
export function mailgunSignature(signingKey: string, nowMs: number): { timestamp: string; token: string; signature: string } {
  const timestamp = String(Math.floor(nowMs / 1000));
  const token = randomBytes(TOKEN_BYTES).toString("hex");
  return { timestamp, token, signature: createHmac("sha256", signingKey).update(timestamp + token).digest("hex") };
}

export function mailgunBody(ctx: EventContext, signingKey: string, nowMs: number): string {
  return JSON.stringify({ signature: mailgunSignature(signingKey, nowMs), "event-data": mailgunEventData(ctx) });
}

// A stored event as a Mailgun events-API item: Mailgun's event names (deferred → failed with
// severity temporary), float-second timestamps, `message.headers.message-id` without brackets,
// `user-variables`, `delivery-status`, and postern's own failures as Mailgun codes them (605, 650, suppress-*).
import type { MessageEvent } from "../../core/model.ts";
import type { StoredMessage, StoredRecipient } from "../../core/store-port.ts";
import { EVENT_NAMES, toEpochSeconds } from "./model.ts";
import { reportedCode, reportedDescription, reportedReason } from "../../webhooks/formats/reported.ts";

export interface MessageFacts {
  message: StoredMessage;
  recipients: StoredRecipient[];
}

const LOG_LEVELS: Partial<Record<MessageEvent["type"], string>> = { failed: "error", deferred: "warn", rejected: "warn" };
/** Mailgun's `reason` of a permanent failure: suppress-* for addresses on a list, else generic. */
const failureReason = (e: MessageEvent): string => reportedReason(e) ?? "generic";

function messagePart(e: MessageEvent, facts: MessageFacts | null) {
  const m = facts?.message;
  const to = facts?.recipients.filter((r) => r.kind === "to").map((r) => r.email).join(", ");
  const headers = {
    "message-id": (m?.messageIdHeader ?? e.messageId).replace(/^<|>$/g, ""),
    ...(m && { from: m.from, subject: m.subject, ...(to && { to }) }),
  };
  return { headers, attachments: [], ...(m && { size: m.size }) };
}

function deliveryStatus(e: MessageEvent) {
  return {
    code: reportedCode(e) ?? (e.type === "delivered" ? 250 : 0), message: reportedDescription(e) ?? "", description: reportedDescription(e) ?? "",
    ...(e.enhancedCode && { "enhanced-code": e.enhancedCode }), ...(e.mx && { "mx-host": e.mx }),
  };
}

function interaction(e: MessageEvent) {
  return {
    ...(e.ip && { ip: e.ip }), ...(e.url && { url: e.url }),
    "client-info": { "user-agent": e.userAgent ?? "", bot: e.isBot ? "generic" : "" },
  };
}

/** One Mailgun event item; `facts` (the stored message) adds from/subject/to and test mode. */
export function toMailgunEvent(e: MessageEvent, facts: MessageFacts | null) {
  const isDelivery = e.type === "delivered" || e.type === "failed" || e.type === "deferred";
  const isInteraction = e.type === "opened" || e.type === "clicked" || e.type === "unsubscribed";
  return {
    id: e.id, event: EVENT_NAMES[e.type], timestamp: toEpochSeconds(e.timestamp), "log-level": LOG_LEVELS[e.type] ?? "info",
    recipient: e.recipient, "recipient-domain": e.recipient.slice(e.recipient.lastIndexOf("@") + 1),
    tags: e.tags, campaigns: [], "user-variables": e.metadata,
    flags: { "is-test-mode": facts?.message.isTest ?? false, "is-authenticated": true, "is-routed": false, "is-system-test": false },
    message: messagePart(e, facts),
    ...(e.type !== "opened" && e.type !== "clicked" && { envelope: { targets: e.recipient, transport: "smtp", ...(facts && { sender: facts.message.from }),
      ...(e.sendingIp && { "sending-ip": e.sendingIp }) } }),
    ...(isDelivery && { "delivery-status": deliveryStatus(e) }),
    ...(e.type === "failed" && { severity: "permanent", reason: failureReason(e) }),
    ...(e.type === "deferred" && { severity: "temporary", reason: "generic" }),
    ...(isInteraction && interaction(e)),
  };
}

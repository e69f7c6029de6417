// A stored event as a Mailgun events-API item: Mailgun's event names (deferred → failed with
// severity temporary), float-second timestamps, `message.headers.message-id` without brackets,
// `user-variables`, `delivery-status`, and the suppression reasons of code 605.
import type { MessageEvent } from "../../core/model.ts";
import type { StoredMessage, StoredRecipient } from "../../core/store-port.ts";
import { EVENT_NAMES, toEpochSeconds } from "./model.ts";

export interface MessageFacts {
  message: StoredMessage;
  recipients: StoredRecipient[];
}

const LOG_LEVELS: Partial<Record<MessageEvent["type"], string>> = { failed: "error", deferred: "warn", rejected: "warn" };
const SUPPRESS_REASONS: Record<string, string> = { bounce: "suppress-bounce", unsubscribe: "suppress-unsubscribe", complaint: "suppress-complaint" };

/** Mailgun's `reason` of a permanent failure: suppress-* for addresses on a list (code 605), else generic. */
function failureReason(e: MessageEvent): string {
  if (e.reason) return e.reason;
  if (e.code !== 605) return "generic";
  const kind = /previously (bounce|unsubscribe|complaint)/i.exec(e.description ?? "")?.[1]?.toLowerCase();
  return (kind && SUPPRESS_REASONS[kind]) || "suppress-bounce";
}

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
    code: e.code ?? (e.type === "delivered" ? 250 : 0), message: e.description ?? "", description: e.description ?? "",
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
    ...(e.type !== "opened" && e.type !== "clicked" && { envelope: { targets: e.recipient, transport: "smtp", ...(facts && { sender: facts.message.from }) } }),
    ...(isDelivery && { "delivery-status": deliveryStatus(e) }),
    ...(e.type === "failed" && { severity: "permanent", reason: failureReason(e) }),
    ...(e.type === "deferred" && { severity: "temporary", reason: "generic" }),
    ...(isInteraction && interaction(e)),
  };
}

// Domain webhook types of the native API (Mailgun's names) → postern's event types, and the sample
// payload `GET /domains/{domain}/webhooks/{type}/sample` returns and webhook creation POSTs to each
// URL. Signed as Mailgun signs: HMAC-SHA256(webhook signing key, timestamp + token), hex.
import { createHmac, randomBytes } from "node:crypto";
import type { EventType } from "../../core/model.ts";

/** Webhook type (the form's `id`) → the event type the target receives. */
export const WEBHOOK_TYPES: Record<string, EventType> = {
  accepted: "accepted", delivered: "delivered", opened: "opened", clicked: "clicked", unsubscribed: "unsubscribed",
  complained: "complained", permanent_fail: "failed", temporary_fail: "deferred",
};

/** Types that only ever fire when the domain tracks them (spec: "for these, tracking must be enabled"). */
export const TRACKED_TYPES: Record<string, "openTracking" | "clickTracking"> = { opened: "openTracking", clicked: "clickTracking" };

export interface WebhookSignature { signature: string; timestamp: number; token: string }

/** Mailgun's scheme: the receiver recomputes the HMAC of timestamp + token with its signing key. */
export function signWebhook(signingKey: string, timestampSec: number, token = randomBytes(25).toString("hex")): WebhookSignature {
  const signature = createHmac("sha256", signingKey).update(`${timestampSec}${token}`).digest("hex");
  return { signature, timestamp: timestampSec, token };
}

const STATUS_BY_TYPE: Record<string, [number, string, string]> = {
  permanent_fail: [550, "Not delivering to a mailbox that does not exist", "550 5.1.1 The email account that you tried to reach does not exist"],
  temporary_fail: [451, "Greylisted, will retry", "451 4.7.1 Please try again later"],
};

function deliveryStatus(type: string) {
  const [code, description, reply] = STATUS_BY_TYPE[type] ?? [250, "", "250 2.0.0 OK"];
  return { code, description, message: [reply], "mx-host": "mx.example.net", "mx-ip": "192.0.2.25", tls: true };
}

/** One example event of `type` for `domain`, as the webhook receives it (Mailgun's event-data shape). */
export function sampleEvent(type: string, domain: string, nowMs: number) {
  const timestamp = Math.floor(nowMs / 1000);
  const recipient = "alice@example.org";
  // As real events: both failure webhooks carry event "failed" and tell them apart by severity.
  const failure = type === "permanent_fail" ? "permanent" : type === "temporary_fail" ? "temporary" : null;
  return {
    event: failure ? "failed" : type, ...(failure ? { severity: failure } : {}), id: `sample-${type}-${timestamp}`, timestamp,
    "delivery-status": deliveryStatus(type),
    envelope: { sender: `bob@${domain}`, "sending-ip": "192.0.2.10", targets: recipient, transport: "smtp" },
    message: {
      headers: { date: new Date(nowMs).toUTCString(), from: `Bob <bob@${domain}>`, subject: "Test webhook sample", to: `Alice <${recipient}>`,
        "x-mailer": "postern", "x-testid": `sample-${timestamp}`, "message-id": `sample.${timestamp}@${domain}` },
      size: 1024,
    },
    recipient, "recipient-domain": "example.org", tags: ["sample"], "user-variables": {},
    flags: { "is-test-mode": false, "is-system-test": true },
    ...(type === "clicked" ? { url: "https://example.org/welcome" } : {}),
  };
}

/** The sample array: one signed item. */
export function sampleItems(type: string, domain: string, nowMs: number, signingKey: string) {
  const event = sampleEvent(type, domain, nowMs);
  return [{ "event-data": event, signature: signWebhook(signingKey, event.timestamp) }];
}

// Domain webhook types of the native API (Mailgun's names) → postern's event types. Their sample
// payloads and signatures are the native webhook format's (webhooks/formats/native.ts).
import type { EventType } from "../../core/model.ts";

/** Webhook type (the form's `id`) → the event type the target receives. */
export const WEBHOOK_TYPES: Record<string, EventType> = {
  accepted: "accepted", delivered: "delivered", opened: "opened", clicked: "clicked", unsubscribed: "unsubscribed",
  complained: "complained", permanent_fail: "failed", temporary_fail: "deferred",
};

/** Types that only ever fire when the domain tracks them (spec: "for these, tracking must be enabled"). */
export const TRACKED_TYPES: Record<string, "openTracking" | "clickTracking"> = { opened: "openTracking", clicked: "clickTracking" };

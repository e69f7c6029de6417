// Which webhook targets an event goes to: the message's callback_url when it has one (in the
// format of the API it was sent through), else the domain's targets subscribed to its type.
import type { MessageEvent } from "../core/model.ts";
import type { WebhookTarget } from "../store/store.ts";
import { mailgunWebhookId } from "./formats/mailgun.ts";
import { sparkpostType } from "./formats/sparkpost.ts";

export type WebhookFormat = WebhookTarget["format"];

/** The format of a callback_url: SendGrid arrays for S1, SparkPost batches for S4, Mailgun otherwise. */
export function callbackFormat(source: string): WebhookFormat {
  if (source === "sendgrid") return "sendgrid";
  if (source === "sparkpost") return "sparkpost";
  return "mailgun";
}

const ALIASES: Record<string, string> = { unsubscribe: "unsubscribed", open: "opened", click: "clicked", bounce: "permanent_fail" };

/**
 * True when `target` subscribes to `event`. An inactive target (SparkPost `active: false`) gets
 * nothing; Mailgun and native targets match on their vendor webhook id; SparkPost targets on
 * SparkPost's own event types when the surface kept them; otherwise `events` (empty = all).
 */
export function isSubscribed(target: WebhookTarget, event: MessageEvent): boolean {
  if (target.extra.active === false) return false;
  // Mailgun and native targets keep the vendor's webhook id (permanent_fail, clicked...) in extra.
  const vendorId = target.extra.mailgunId ?? target.extra.webhookType;
  if (typeof vendorId === "string" && vendorId) return (ALIASES[vendorId] ?? vendorId) === mailgunWebhookId(event);
  if (target.format === "sparkpost") return isSparkpostSubscribed(target, event);
  if (target.events.length === 0 || target.format === "sendgrid") return true;
  const id = mailgunWebhookId(event);
  return target.events.some((e) => (ALIASES[e] ?? e) === id || (e === "failed" && id.endsWith("_fail")));
}

/**
 * SparkPost's exact types (extra.events) decide when present: the native names the surface also
 * stores are coarser (bounce and out_of_band are both "failed"). `events` may hold either kind.
 */
function isSparkpostSubscribed(target: WebhookTarget, event: MessageEvent): boolean {
  const type = sparkpostType(event).type;
  const exact = target.extra.events;
  if (Array.isArray(exact) && exact.length) return exact.includes(type);
  return target.events.length === 0 || target.events.includes(type) || target.events.includes(event.type);
}

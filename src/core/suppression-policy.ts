// Which recorded events put an address on a suppression list: the one rule every producer (MTA
// outcomes, inbound reports, tracking) goes through, as ESPs apply it. Pure.
// - A hard bounce (invalid recipient, a domain without mail) suppresses at once.
// - Soft bounces (mailbox full, timeouts, ...) and blocks (spam, reputation, policy) never do on
//   their own: the address is fine, the mail or its sender is not. Repeated soft bounces of one
//   address within a window may, when configured (SoftBouncePolicy; off by default).
// - Deferrals (a 4xx reply, a "delayed" DSN) are notices, not failures; neither is a queue lifetime
//   running out, an accept-time drop of an already suppressed address, a cancelled send or a purge.
// - Complaints (every ARF report) and unsubscribes suppress.
import { isDrop, type MessageEvent } from "./model.ts";
import type { Suppression } from "./store-port.ts";
import { bounceCategory, classifyBounce, isBounceClass, type BounceClass } from "./bounce/index.ts";

/** Repeated soft bounces: `limit` of them (0 = never) within `windowMs` suppress the address. */
export interface SoftBouncePolicy {
  limit: number;
  windowMs: number;
}

export interface SuppressionContext {
  policy?: SoftBouncePolicy;
  /** Soft bounces of this address already recorded within the policy's window (this one excluded). */
  recentSoftBounces?: number;
}

/** The `url` of an unsubscribed event that came from a tag unsubscribe link (%tag_unsubscribe_url%). */
export const TAG_UNSUBSCRIBE_EVENT_URL = "tag-unsubscribe";

/** SMTP reply codes are three digits below 600. */
const isSmtpCode = (code: number | undefined): code is number => code !== undefined && code >= 200 && code < 600;

/** The bounce class of a failure event (classified from its code and text when it carries none). */
export function classOfFailure(event: MessageEvent): BounceClass {
  if (isBounceClass(event.bounceClass)) return event.bounceClass;
  return classifyBounce({ code: event.code, enhancedCode: event.enhancedCode, text: event.description, expired: event.reason === "old" }).bounceClass;
}

/** A failure that counts towards the repeated-soft-bounce limit (not auto-replies or challenges). */
export function isSoftBounce(event: MessageEvent): boolean {
  if (event.type !== "failed" || event.severity !== "permanent" || isDrop(event) || event.reason === "old") return false;
  const cls = classOfFailure(event);
  return bounceCategory(cls) === "soft" && cls !== 60 && cls !== 100;
}

/** The suppression `event` implies, or null (see the rule at the top of this file). */
export function suppressionFor(event: MessageEvent, ctx: SuppressionContext = {}): Suppression | null {
  const base = { domain: event.domain, address: event.recipient.toLowerCase(), scope: null, createdAt: event.timestamp };
  switch (event.type) {
    case "failed": {
      if (event.severity !== "permanent" || event.reason === "old" || isDrop(event)) return null;
      // About the address only when a remote server said so, or DNS said the domain takes no mail
      // (5.1.x without a reply); local policy (a deleted sending domain) says nothing about it.
      const isAboutAddress = isSmtpCode(event.code) || (event.code === undefined && (event.enhancedCode ?? "").startsWith("5.1."));
      if (!isAboutAddress) return null;
      const reason = (event.description ?? "").slice(0, 500);
      const code = String(event.code ?? event.enhancedCode ?? 550);
      if (bounceCategory(classOfFailure(event)) === "hard") return { ...base, type: "bounces", reason, code };
      const limit = ctx.policy?.limit ?? 0;
      if (limit > 0 && isSoftBounce(event) && (ctx.recentSoftBounces ?? 0) + 1 >= limit) {
        return { ...base, type: "bounces", reason: `repeated soft bounces (${limit}): ${reason}`.slice(0, 500), code };
      }
      return null;
    }
    case "complained":
      return { ...base, type: "complaints", reason: "complaint (ARF)", code: "" };
    case "unsubscribed":
      if (event.unsubscribeGroup !== undefined) return { ...base, type: `group:${event.unsubscribeGroup}`, reason: "unsubscribe group link", code: "" };
      // A tag unsubscribe keeps the message's tags in `code`: it stops only mail with one of them.
      if (event.url === TAG_UNSUBSCRIBE_EVENT_URL && event.tags.length) return { ...base, type: "unsubscribes", reason: "tag unsubscribe link", code: event.tags.join(",") };
      return { ...base, type: "unsubscribes", reason: event.url === "list-unsubscribe" ? "one-click unsubscribe (RFC 8058)" : "unsubscribe link", code: "" };
    default:
      return null;
  }
}

/**
 * The report-only list a failure puts its address on, or null: `invalid` when the address itself
 * is bad (a bad mailbox syntax or a domain that takes no mail: 5.1.3, 5.1.2, or DNS said so),
 * `blocks` when a receiver refused the mail for anything but the address (what SendGrid's events
 * call a blocked bounce). Neither stops mail; a hard bounce is on the bounce list as well.
 */
export function reportListFor(event: MessageEvent): Suppression | null {
  if (event.type !== "failed" || event.severity !== "permanent" || event.reason === "old" || isDrop(event)) return null;
  const enhanced = event.enhancedCode ?? "";
  const isDnsVerdict = event.code === undefined && enhanced.startsWith("5.1.");
  if (!isSmtpCode(event.code) && !isDnsVerdict) return null;
  const base = { domain: event.domain, address: event.recipient.toLowerCase(), scope: null, createdAt: event.timestamp,
    reason: (event.description ?? "").slice(0, 500), code: enhanced || String(event.code) };
  const cls = classOfFailure(event);
  if (bounceCategory(cls) === "hard") return isDnsVerdict || /^5\.1\.[23]$/.test(enhanced) ? { ...base, type: "invalid" } : null;
  // Auto-replies and challenges are not refusals.
  return cls === 60 || cls === 100 ? null : { ...base, type: "blocks" };
}

/** Every suppression (and report-list entry) a batch of events implies, in event order; `ctxFor` gives each event's context. */
export function suppressionsFor(events: MessageEvent[], ctxFor: (e: MessageEvent) => SuppressionContext = () => ({})): Suppression[] {
  const out: Suppression[] = [];
  for (const e of events) {
    const s = suppressionFor(e, ctxFor(e));
    if (s) out.push(s);
    const listed = reportListFor(e);
    if (listed) out.push(listed);
  }
  return out;
}

// Queue policy: what one delivery outcome does to a recipient row (delivered, retried on the
// schedule, or failed when permanent or past max_queue_lifetime) and which events it records
// (the recorder derives suppressions from them: core/suppression-policy.ts). Pure.
import type { MessageEvent } from "../../core/model.ts";
import type { RecipientUpdate, StoredMessage, StoredRecipient } from "../../core/store-port.ts";
import { newId } from "../../core/ids.ts";
import { nextAttemptAt } from "../delivery/outcome.ts";
import type { AttemptOutcome } from "../delivery/attempt.ts";
import { classifyBounce } from "../../core/bounce/index.ts";

export interface QueuePolicy {
  /** Delays between attempts in ms; after the last, the last step repeats until the lifetime ends. */
  schedule: number[];
  lifetimeMs: number;
}

export interface AppliedOutcome {
  update: RecipientUpdate;
  events: MessageEvent[];
}

/**
 * Mail waiting for a warm-up's next hour starts within this long after the hour, each recipient at
 * its own offset (from its id), so the hour does not open with every waiting recipient at once.
 */
export const WAIT_SPREAD_MS = 5 * 60_000;

/** A recipient's fixed offset in [0, WAIT_SPREAD_MS): FNV-1a of its id. */
export function spreadOf(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return h % WAIT_SPREAD_MS;
}

/** Decides the next state of `rcpt` after `outcome` at `now`. */
export function applyOutcome(rcpt: StoredRecipient, msg: StoredMessage, outcome: AttemptOutcome, now: number, policy: QueuePolicy): AppliedOutcome {
  if (outcome.retryAt !== undefined && now < rcpt.expiresAt) return applyWait(rcpt, msg, outcome, outcome.retryAt, now);
  const attempts = rcpt.attempts + 1;
  const firstAttemptAt = rcpt.firstAttemptAt ?? now;
  const base = { id: rcpt.id, attempts, firstAttemptAt, lastCode: outcome.code ?? null, lastResponse: outcome.message, mx: outcome.mx ?? null,
    ...(outcome.sendingIp ? { sourceIp: outcome.sendingIp, ipPool: outcome.ipPool ?? null } : {}) };
  const event = (type: MessageEvent["type"], extra: Partial<MessageEvent> = {}): MessageEvent => ({
    id: newId(now), type, messageId: msg.id, recipient: rcpt.email.toLowerCase(), recipientId: rcpt.id, domain: msg.domain, timestamp: now,
    code: outcome.code, enhancedCode: outcome.enhancedCode, description: outcome.message, mx: outcome.mx, tags: msg.tags, metadata: msg.metadata,
    attempt: attempts, ...(outcome.tls !== undefined ? { tls: outcome.tls } : {}),
    ...(outcome.sendingIp ? { sendingIp: outcome.sendingIp, ...(outcome.ipPool ? { ipPool: outcome.ipPool } : {}) } : {}), ...extra,
  });
  if (outcome.kind === "delivered") {
    return { update: { ...base, status: "delivered", nextAttemptAt: now }, events: [event("delivered")] };
  }
  // The lifetime counts from acceptance (RFC 5321 §4.5.4.1: give up after 4-5 days in the queue).
  const next = outcome.kind === "deferred" ? nextAttemptAt(attempts, msg.createdAt, now, policy.schedule, policy.lifetimeMs) : null;
  if (next !== null && now < rcpt.expiresAt) {
    const bounceClass = classifyBounce({ code: outcome.code, enhancedCode: outcome.enhancedCode, text: outcome.message }).bounceClass;
    return { update: { ...base, status: "deferred", nextAttemptAt: next }, events: [event("deferred", { severity: "temporary", bounceClass })] };
  }
  const expired = outcome.kind === "deferred";
  const description = expired ? `gave up after ${attempts} attempts: ${outcome.message}` : outcome.message;
  // A refusal of MAIL FROM is about our sender, never the recipient (maddy's "501 5.7.27 Domain in MAIL FROM has null MX
  // record", Haraka's "550 No MX for your FROM address"): the classifier is told so. Replies to RCPT and DATA keep
  // postern's own rules without a command (docs/bounces.md).
  const command = /^MAIL\b/i.test(outcome.command ?? "") ? "MAIL" : undefined;
  const { bounceClass } = classifyBounce({ code: outcome.code, enhancedCode: outcome.enhancedCode, text: outcome.message, expired, ...(command ? { command } : {}) });
  const failed = event("failed", { severity: "permanent", description, bounceClass, ...(expired ? { code: outcome.code ?? 498, reason: "old" } : {}) });
  return { update: { ...base, status: "failed", nextAttemptAt: now }, events: [failed] };
}

/**
 * Not attempted, waiting until `retryAt` (a warming address's next hour): deferred, never failed
 * (within the lifetime), with no attempt counted, since no receiver saw it. The `deferred` event is
 * recorded when the wait begins, not again each hour it goes on for the same reason: a backlog
 * waiting for a warming address would otherwise write (and post to webhooks) one event per
 * recipient per hour.
 */
function applyWait(rcpt: StoredRecipient, msg: StoredMessage, outcome: AttemptOutcome, retryAt: number, now: number): AppliedOutcome {
  const nextAt = Math.min(Math.max(retryAt, now) + spreadOf(rcpt.id), rcpt.expiresAt);
  const update: RecipientUpdate = { id: rcpt.id, status: "deferred", attempts: rcpt.attempts, firstAttemptAt: rcpt.firstAttemptAt, nextAttemptAt: nextAt,
    lastCode: null, lastResponse: outcome.message, mx: rcpt.mx };
  if (rcpt.lastResponse === outcome.message) return { update, events: [] };
  const { bounceClass } = classifyBounce({ enhancedCode: outcome.enhancedCode, text: outcome.message });
  const deferred: MessageEvent = { id: newId(now), type: "deferred", messageId: msg.id, recipient: rcpt.email.toLowerCase(), recipientId: rcpt.id,
    domain: msg.domain, timestamp: now, severity: "temporary", enhancedCode: outcome.enhancedCode, description: outcome.message, bounceClass,
    tags: msg.tags, metadata: msg.metadata };
  return { update, events: [deferred] };
}

/** How long mail of a paused batch waits before its hold is read again. */
export const PAUSED_RECHECK_MS = 5_000;

/**
 * A recipient whose batch is held, not attempted: paused, it waits (no attempt counted) until the
 * hold is lifted or its lifetime ends; cancelled, or paused past its lifetime, it is dropped with
 * a failure that suppresses nothing (reason "cancelled": a drop, as an accept-time one).
 */
export function applyHold(rcpt: StoredRecipient, msg: StoredMessage, hold: "pause" | "cancel", now: number): AppliedOutcome {
  const keep = { id: rcpt.id, attempts: rcpt.attempts, firstAttemptAt: rcpt.firstAttemptAt, lastCode: rcpt.lastCode, mx: rcpt.mx };
  if (hold === "pause" && now < rcpt.expiresAt) {
    return { update: { ...keep, status: rcpt.status, nextAttemptAt: now + PAUSED_RECHECK_MS, lastResponse: "paused: its scheduled-send batch is paused" }, events: [] };
  }
  const description = hold === "cancel" ? "scheduled send cancelled" : "scheduled send paused past its lifetime";
  const failed: MessageEvent = { id: newId(now), type: "failed", messageId: msg.id, recipient: rcpt.email.toLowerCase(), recipientId: rcpt.id,
    domain: msg.domain, timestamp: now, severity: "permanent", reason: "cancelled", description, tags: msg.tags, metadata: msg.metadata };
  return { update: { ...keep, status: "failed", nextAttemptAt: now, lastResponse: description }, events: [failed] };
}

/** The failed events of recipients an administrator purged from the queue (webhooks see them too). */
export function purgedEvents(rows: StoredRecipient[], messages: Map<string, StoredMessage>, now: number): MessageEvent[] {
  return rows.flatMap((r) => {
    const msg = messages.get(r.messageId);
    if (!msg) return [];
    return [{ id: newId(now), type: "failed" as const, messageId: msg.id, recipient: r.email.toLowerCase(), recipientId: r.id, domain: msg.domain,
      timestamp: now, severity: "permanent" as const, description: "purged from the queue by the administrator", attempt: r.attempts, bounceClass: 25,
      tags: msg.tags, metadata: msg.metadata }];
  });
}

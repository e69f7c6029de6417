// SparkPost's deliverability metrics counted from postern's events, by SparkPost's names. One
// Tally per result row (a whole range, a domain, a campaign, a time bucket...). Opens and clicks
// by bots count as prefetched (only the count_nonprefetched_* metrics leave them out).
import type { MessageEvent } from "../../core/model.ts";
import { classOf } from "../../webhooks/formats/bounce-fields.ts";
import { bounceCategory } from "../../core/bounce/index.ts";

export const METRICS = [
  "count_targeted", "count_injected", "count_rejected", "count_policy_rejection", "count_generation_failed", "count_generation_rejection",
  "count_sent", "count_accepted", "count_delivered", "count_delivered_first", "count_delivered_subsequent",
  "count_bounce", "count_hard_bounce", "count_soft_bounce", "count_block_bounce", "count_admin_bounce", "count_undetermined_bounce",
  "count_inband_bounce", "count_outofband_bounce", "count_delayed", "count_delayed_first",
  "count_rendered", "count_initial_rendered", "count_unique_rendered", "count_unique_initial_rendered", "count_unique_confirmed_opened",
  "count_nonprefetched_rendered", "count_nonprefetched_initial_rendered", "count_nonprefetched_unique_rendered",
  "count_nonprefetched_unique_initial_rendered", "count_nonprefetched_unique_confirmed_opened",
  "count_clicked", "count_unique_clicked", "count_spam_complaint", "count_unsubscribe", "total_msg_volume",
] as const;
export type Metric = (typeof METRICS)[number];

const BOUNCE_BY_CATEGORY = { hard: "count_hard_bounce", soft: "count_soft_bounce", block: "count_block_bounce", admin: "count_admin_bounce",
  undetermined: "count_undetermined_bounce" } as const;

export interface Tally { counts: Record<Metric, number>; seen: Set<string> }

export const newTally = (): Tally => ({ counts: Object.fromEntries(METRICS.map((m) => [m, 0])) as Record<Metric, number>, seen: new Set() });

/** Adds one event; `size` is its message's size in bytes (total_msg_volume of deliveries). */
export function tally(t: Tally, e: MessageEvent, size = 0): void {
  const c = t.counts;
  const once = (kind: string) => {
    const key = `${kind}|${e.messageId}|${e.recipient}`;
    return !t.seen.has(key) && Boolean(t.seen.add(key));
  };
  switch (e.type) {
    case "accepted": c.count_targeted++; c.count_injected++; break;
    case "rejected": c.count_targeted++; c.count_rejected++; break;
    case "delivered":
      c.count_sent++; c.count_accepted++; c.count_delivered++; c.total_msg_volume += size;
      if ((e.attempt ?? 1) <= 1) c.count_delivered_first++; else c.count_delivered_subsequent++;
      break;
    case "deferred": c.count_delayed++; if ((e.attempt ?? 1) <= 1) c.count_delayed_first++; break;
    case "failed": failure(c, e); break;
    case "opened": open(c, e, once); break;
    case "clicked":
      c.count_clicked++;
      if (once("clicked")) c.count_unique_clicked++;
      if (once("confirmed")) c.count_unique_confirmed_opened++;
      if (!e.isBot && once("np-confirmed")) c.count_nonprefetched_unique_confirmed_opened++;
      break;
    case "complained": c.count_spam_complaint++; break;
    case "unsubscribed": c.count_unsubscribe++; break;
  }
}

function failure(c: Record<Metric, number>, e: MessageEvent) {
  if (e.severity === "temporary") { c.count_delayed++; return; }
  // A cancelled scheduled send was injected already; it is neither a rejection nor a bounce.
  if (e.reason === "cancelled") return;
  // An address on a suppression list is refused at injection (SparkPost's policy rejection).
  if (e.reason === "suppressed") { c.count_targeted++; c.count_rejected++; c.count_policy_rejection++; return; }
  c.count_bounce++;
  c[BOUNCE_BY_CATEGORY[bounceCategory(classOf(e))]]++;
  // A failure of a delivery attempt is in band; a DSN received later is out of band (the mail was accepted first).
  if (e.attempt !== undefined) { c.count_inband_bounce++; c.count_sent++; } else if (e.code !== undefined) { c.count_outofband_bounce++; c.count_accepted--; }
}

function open(c: Record<Metric, number>, e: MessageEvent, once: (kind: string) => boolean) {
  c.count_rendered++; c.count_initial_rendered++;
  const first = once("rendered");
  if (first) { c.count_unique_rendered++; c.count_unique_initial_rendered++; }
  if (once("confirmed")) c.count_unique_confirmed_opened++;
  if (e.isBot) return;
  c.count_nonprefetched_rendered++; c.count_nonprefetched_initial_rendered++;
  if (once("np-rendered")) { c.count_nonprefetched_unique_rendered++; c.count_nonprefetched_unique_initial_rendered++; }
  if (once("np-confirmed")) c.count_nonprefetched_unique_confirmed_opened++;
}

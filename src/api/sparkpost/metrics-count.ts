// SparkPost's deliverability metrics counted from postern's stat facts (core/stats/facts.ts: live
// events and retention's rollups), by SparkPost's names. One Tally per result row (a whole range, a
// domain, a campaign, a time bucket...). Opens and clicks by bots count as prefetched (only the
// count_nonprefetched_* metrics leave them out); unique ones are the firsts flagged when recorded.
import type { StatFact } from "../../core/stats/facts.ts";
import type { First, StatKey } from "../../core/stats/stat-key.ts";
import { bounceCategory, isBounceClass } from "../../core/bounce/index.ts";

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

/** Adds one fact (n events of one stat key; `bytes` the volume its deliveries carried). */
export function tally(t: Tally, f: StatFact): void {
  const c = t.counts;
  const { key: k, n } = f;
  // Whether the open or click is the `first` named; `seen` decides for events recorded without firsts.
  const once = (first: First) => {
    if (k.firsts) return k.firsts.includes(first);
    const key = `${first === "engaged" || first === "human-engaged" ? first : `${first}|${k.type}`}|${f.who}`;
    return !t.seen.has(key) && Boolean(t.seen.add(key));
  };
  switch (k.type) {
    case "accepted": c.count_targeted += n; c.count_injected += n; break;
    case "rejected": c.count_targeted += n; c.count_rejected += n; break;
    case "delivered":
      c.count_sent += n; c.count_accepted += n; c.count_delivered += n; c.total_msg_volume += f.bytes;
      if (k.retry) c.count_delivered_subsequent += n; else c.count_delivered_first += n;
      break;
    case "deferred": c.count_delayed += n; if (!k.retry) c.count_delayed_first += n; break;
    case "failed": failure(c, k, n); break;
    case "opened": open(c, k, n, once); break;
    case "clicked":
      c.count_clicked += n;
      if (once("once")) c.count_unique_clicked += n;
      if (once("engaged")) c.count_unique_confirmed_opened += n;
      if (!k.bot && once("human-engaged")) c.count_nonprefetched_unique_confirmed_opened += n;
      break;
    case "complained": c.count_spam_complaint += n; break;
    case "unsubscribed": c.count_unsubscribe += n; break;
  }
}

function failure(c: Record<Metric, number>, k: StatKey, n: number) {
  if (k.temporary) { c.count_delayed += n; return; }
  // A cancelled scheduled send was injected already; it is neither a rejection nor a bounce.
  if (k.reason === "cancelled") return;
  // An address on a suppression list is refused at injection (SparkPost's policy rejection).
  if (k.reason === "suppressed") { c.count_targeted += n; c.count_rejected += n; c.count_policy_rejection += n; return; }
  c.count_bounce += n;
  c[BOUNCE_BY_CATEGORY[bounceCategory(isBounceClass(k.bounceClass) ? k.bounceClass : 1)]] += n;
  // A failure of a delivery attempt is in band; a DSN received later is out of band (the mail was accepted first).
  if (k.band === "in") { c.count_inband_bounce += n; c.count_sent += n; } else if (k.band === "out") { c.count_outofband_bounce += n; c.count_accepted -= n; }
}

function open(c: Record<Metric, number>, k: StatKey, n: number, once: (first: First) => boolean) {
  c.count_rendered += n; c.count_initial_rendered += n;
  if (once("once")) { c.count_unique_rendered += n; c.count_unique_initial_rendered += n; }
  if (once("engaged")) c.count_unique_confirmed_opened += n;
  if (k.bot) return;
  c.count_nonprefetched_rendered += n; c.count_nonprefetched_initial_rendered += n;
  if (once("human")) { c.count_nonprefetched_unique_rendered += n; c.count_nonprefetched_unique_initial_rendered += n; }
  if (once("human-engaged")) c.count_nonprefetched_unique_confirmed_opened += n;
}

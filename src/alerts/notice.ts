// What a channel is told when an alert fires, reminds or resolves: the webhook's `alert` object
// (rates as fractions) and its wording for people (rates as percentages).
import type { AlertIncident, AlertState } from "../core/alerts-port.ts";
import { METRICS, type Rule } from "./rules.ts";

export interface AlertNotice {
  id: string;
  rule: string;
  state: AlertState;
  subject: string;
  value: number;
  threshold: number;
  /** ISO 8601, UTC. */
  at: string;
}

export const noticeOf = (incident: AlertIncident, rule: Rule, state: AlertState, now: number): AlertNotice => ({
  id: incident.id, rule: rule.name, state, subject: incident.subject, value: incident.value, threshold: incident.threshold,
  at: new Date(now).toISOString(),
});

/** A channel: where notices go (the rule for its own targets). Never throws: a failure is logged by the channel. */
export interface AlertChannel { deliver(notice: AlertNotice, rule: Rule): Promise<void> }

const UNITS: Partial<Record<Rule["metric"], (v: number) => string>> = {
  hard_bounce_rate: (v) => `${(v * 100).toFixed(2)} %`, block_rate: (v) => `${(v * 100).toFixed(2)} %`,
  complaint_rate: (v) => `${(v * 100).toFixed(3)} %`, usage_limit: (v) => `${(v * 100).toFixed(1)} %`,
  queue_age: (v) => `${(v / 3600).toFixed(1)} h`, certificate: (v) => `${v.toFixed(1)} days`, dkim_pending: (v) => `${v.toFixed(1)} h`,
};

export const shown = (rule: Rule, v: number) => (UNITS[rule.metric] ?? String)(v);

/** The one-line summary people read (mail subject, console). */
export function summaryOf(n: AlertNotice, rule: Rule): string {
  const side = METRICS[rule.metric].below ? "under" : "over";
  const verb = n.state === "resolved" ? "resolved" : n.state === "reminder" ? "still firing" : "firing";
  return `${n.rule} ${verb} for ${n.subject}: ${shown(rule, n.value)} (${side} ${shown(rule, n.threshold)})`;
}

// Alert rules as data: what each metric measures and which way it fires, the built-in rules of
// contract section 13, and a configured rule (stored through the port) seen as the same Rule.
import type { StoredAlertRule } from "../core/alerts-port.ts";

/**
 * `rate`: a fraction of the messages accepted per sending domain over the rule's window, gated by
 * its minimum volume; `gauge`: one reading now (queue age in seconds, certificate days left, the
 * share of a domain's sending limit used); `event`: reported from outside (observe(): the doctor,
 * the blocklist watch, the DKIM lifecycle).
 */
export type MetricKind = "rate" | "gauge" | "event";

export const METRICS = {
  hard_bounce_rate: { kind: "rate", below: false },
  block_rate: { kind: "rate", below: false },
  complaint_rate: { kind: "rate", below: false },
  queue_age: { kind: "gauge", below: false },
  certificate: { kind: "gauge", below: true },
  usage_limit: { kind: "gauge", below: false },
  blocklist: { kind: "event", below: false },
  check: { kind: "event", below: false },
  dkim_pending: { kind: "event", below: false },
} as const satisfies Record<string, { kind: MetricKind; below: boolean }>;

export type Metric = keyof typeof METRICS;
export const isMetric = (m: string): m is Metric => Object.hasOwn(METRICS, m);

export interface Rule {
  /** A built-in rule's name, or a configured rule's id as text: what incidents are keyed by. */
  id: string;
  /** What the webhook's `rule` says: the built-in's name, or the configured rule's metric. */
  name: string;
  metric: Metric;
  threshold: number;
  window: number;
  minVolume: number;
  domain: string | null;
  builtIn: boolean;
  /** Channels of this rule besides [alerts] (SparkPost's channels, SendGrid's email_to). */
  emails: string[];
  webhooks: string[];
  /** A muted rule keeps its incidents but notifies nobody (SparkPost's `muted`). */
  muted: boolean;
}

const HOUR = 3_600_000;
const builtIn = (id: string, metric: Metric, threshold: number, minVolume = 0): Rule =>
  ({ id, name: id, metric, threshold, window: HOUR, minVolume, domain: null, builtIn: true, emails: [], webhooks: [], muted: false });

/**
 * Contract section 13. Rates are fractions over the last hour per sending domain with at least 100
 * messages; complaints warn above 0.1 % and are critical above Gmail's 0.3 % (two rules, so each
 * fires once). queue_age is in seconds, certificate in days left, dkim_pending in hours; blocklist
 * and check fire on what observe() reports.
 */
export const BUILT_IN_RULES: readonly Rule[] = [
  builtIn("hard_bounce_rate", "hard_bounce_rate", 0.05, 100),
  builtIn("block_rate", "block_rate", 0.10, 100),
  builtIn("complaint_rate_warn", "complaint_rate", 0.001, 100),
  builtIn("complaint_rate", "complaint_rate", 0.003, 100),
  builtIn("queue_age", "queue_age", 2 * 3600),
  builtIn("certificate", "certificate", 14),
  builtIn("blocklist", "blocklist", 0),
  builtIn("check", "check", 0),
  builtIn("dkim_pending", "dkim_pending", 48),
];

const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

/** A stored rule as a Rule (a metric this version does not know is skipped). */
export function ruleOf(r: StoredAlertRule): Rule | null {
  if (!isMetric(r.metric)) return null;
  return { id: String(r.id), name: r.metric, metric: r.metric, threshold: r.threshold, window: r.window, minVolume: r.minVolume, domain: r.domain,
    builtIn: false, emails: strings(r.extra.emails), webhooks: strings(r.extra.webhooks), muted: r.extra.muted === true };
}

/** Whether `value` is past the rule's threshold (strictly: a rate equal to it does not fire). */
export function isOver(rule: Pick<Rule, "metric" | "threshold">, value: number): boolean {
  return METRICS[rule.metric].below ? value < rule.threshold : value > rule.threshold;
}

/** Whether a rule limited to a domain covers `subject` (a domain, a host under it, or "check:domain"). */
export function coversSubject(rule: Pick<Rule, "domain">, subject: string): boolean {
  if (!rule.domain) return true;
  const name = subject.toLowerCase().split(":").pop()!;
  return name === rule.domain || name.endsWith(`.${rule.domain}`);
}

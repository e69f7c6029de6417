// A configured rule as the native API and the CLI write and read it:
// {"metric","threshold","window","min_volume","domain"}. Rates are fractions (0.05, not 5),
// queue_age is in seconds, certificate in days left, dkim_pending in hours; `window` is a
// duration ("1h", "30m") or seconds. Absent fields take the built-in rule's values.
import { AppError } from "../core/errors.ts";
import type { AlertIncident, StoredAlertRule } from "../core/alerts-port.ts";
import { parseDuration } from "../core/values/duration.ts";
import { BUILT_IN_RULES, METRICS, isMetric } from "./rules.ts";

export interface RuleInput { metric?: unknown; threshold?: unknown; window?: unknown; min_volume?: unknown; domain?: unknown }

/** The metrics a configured rule may name through the native API and the CLI. */
export const CONFIGURABLE = ["hard_bounce_rate", "block_rate", "complaint_rate", "queue_age", "blocklist", "check", "certificate", "dkim_pending"];

const invalid = (field: string, message: string) => new AppError("invalid", `${field}: ${message}`, { field });

function numberOf(v: unknown, field: string): number | undefined {
  if (v === undefined || v === null || v === "") return undefined;
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
  if (!Number.isFinite(n) || n < 0) throw invalid(field, `expected a number of at least 0, got ${JSON.stringify(v)}`);
  return n;
}

export function windowMs(v: unknown): number | undefined {
  if (v === undefined || v === null || v === "") return undefined;
  const ms = typeof v === "number" || /^\d+$/.test(String(v)) ? Number(v) * 1000 : parseDuration(String(v));
  if (ms === null || !Number.isFinite(ms) || ms < 60_000 || ms > 31 * 86_400_000) {
    throw invalid("window", `expected a duration from 1m to 31d such as "1h" (or seconds), got ${JSON.stringify(v)}`);
  }
  return ms;
}

/** The stored fields of a rule from `input` (a new rule, or `base` changed by what `input` gives). */
export function ruleFromInput(input: RuleInput, source: string, now: number, base?: StoredAlertRule, anyMetric = false): Omit<StoredAlertRule, "id"> {
  const metric = input.metric ?? base?.metric;
  if (typeof metric !== "string" || !metric) throw invalid("metric", `required, one of ${CONFIGURABLE.join(", ")}`);
  // usage_limit (a share of a domain's sending limit) comes only from the vendors' alerts (SendGrid usage_limit, SparkPost monthly_sending_limit).
  if (!isMetric(metric) || (!CONFIGURABLE.includes(metric) && !base && !anyMetric)) throw invalid("metric", `unknown metric "${metric}"; one of ${CONFIGURABLE.join(", ")}`);
  const preset = BUILT_IN_RULES.find((r) => r.metric === metric) ?? { threshold: 0.9, window: 3_600_000, minVolume: 0 };
  const threshold = numberOf(input.threshold, "threshold") ?? (base?.metric === metric ? base.threshold : preset.threshold);
  if (METRICS[metric].kind === "rate" && threshold > 1) throw invalid("threshold", `rates are fractions (0.05 for 5 %), got ${threshold}`);
  const minVolume = numberOf(input.min_volume, "min_volume") ?? base?.minVolume ?? preset.minVolume;
  if (!Number.isInteger(minVolume)) throw invalid("min_volume", `expected a whole number, got ${minVolume}`);
  const domain = input.domain === undefined ? base?.domain ?? null : input.domain === null || input.domain === "" ? null : input.domain;
  if (domain !== null && (typeof domain !== "string" || !/^[a-z0-9.-]+\.[a-z0-9-]+$/i.test(domain))) throw invalid("domain", `expected a domain name, got ${JSON.stringify(domain)}`);
  return { metric, threshold, window: windowMs(input.window) ?? base?.window ?? preset.window, minVolume, domain: domain?.toLowerCase() ?? null,
    source: base?.source ?? source, extra: base?.extra ?? {}, createdAt: base?.createdAt ?? now, updatedAt: now };
}

/** "1h", "90m", "45s": the largest unit that divides it. */
export function durationText(ms: number): string {
  for (const [unit, size] of [["d", 86_400_000], ["h", 3_600_000], ["m", 60_000], ["s", 1000]] as const) if (ms % size === 0) return `${ms / size}${unit}`;
  return `${ms}ms`;
}

/** A stored rule as the native API and `alerts list --json` show it. */
export function ruleView(r: StoredAlertRule) {
  return { id: String(r.id), metric: r.metric, threshold: r.threshold, window: durationText(r.window), min_volume: r.minVolume, domain: r.domain,
    source: r.source, created_at: new Date(r.createdAt).toISOString() };
}

/** An incident as the native API, the CLI and the console show it. */
export function incidentView(i: AlertIncident, ruleName = i.ruleId) {
  const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
  return { id: i.id, rule: ruleName, rule_id: i.ruleId, state: i.state, subject: i.subject, value: i.value, threshold: i.threshold, fired_at: iso(i.firedAt),
    notified_at: iso(i.notifiedAt), clear_since: iso(i.clearSince), resolved_at: iso(i.resolvedAt) };
}

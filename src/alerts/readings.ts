// What the rate and gauge rules read each minute, from the sources app.ts hands in (the stat facts,
// the queue, the certificate, the domains' sending limits): one reading per (rule, subject) with
// data now. Event rules read nothing here: they are told (observe()).
import type { StatFact } from "../core/stats/facts.ts";
import { isOver, METRICS, coversSubject, type Rule } from "./rules.ts";
import { rateOf, tallyByDomain, type DomainTally } from "./rates.ts";

export interface AlertSources {
  /** Stat facts of every sending domain in [begin, end] (activity.statFacts). */
  statFacts(q: { begin: number; end: number }): Promise<StatFact[]>;
  /** When the oldest message still waiting in the queue was accepted (ms; of `domain`'s mail when given); null when none waits. */
  oldestQueuedAt(domain: string | null): Promise<number | null>;
  /** The served certificate (its first name) and when it expires (ms); null without one. */
  certificate(): { subject: string; notAfter: number } | null;
  /** Each domain with a sending limit: messages counted in its current window and the limit. */
  usage(): Promise<{ domain: string; used: number; max: number }[]>;
}

export interface Reading { rule: Rule; subject: string; value: number; firing: boolean }

const DAY = 86_400_000;
const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

async function rateReadings(rules: Rule[], sources: AlertSources, now: number): Promise<Reading[]> {
  const byWindow = new Map<number, Map<string, DomainTally>>();
  const out: Reading[] = [];
  for (const rule of rules) {
    if (!byWindow.has(rule.window)) byWindow.set(rule.window, tallyByDomain(await sources.statFacts({ begin: now - rule.window, end: now })));
    for (const [domain, tally] of byWindow.get(rule.window)!) {
      if (!coversSubject(rule, domain)) continue;
      const value = round(rateOf(rule.metric, tally), 6);
      out.push({ rule, subject: domain, value, firing: tally.volume >= rule.minVolume && tally.volume > 0 && isOver(rule, value) });
    }
  }
  return out;
}

async function gaugeReadings(rule: Rule, sources: AlertSources, now: number): Promise<Reading[]> {
  const reading = (subject: string, value: number): Reading => ({ rule, subject, value, firing: isOver(rule, value) });
  switch (rule.metric) {
    case "queue_age": {
      const oldest = await sources.oldestQueuedAt(rule.domain);
      return [reading(rule.domain ?? "queue", oldest === null ? 0 : Math.max(0, Math.round((now - oldest) / 1000)))];
    }
    case "certificate": {
      const cert = sources.certificate();
      return cert ? [reading(cert.subject, round((cert.notAfter - now) / DAY, 2))] : [];
    }
    case "usage_limit":
      return (await sources.usage()).filter((u) => u.max > 0 && coversSubject(rule, u.domain)).map((u) => reading(u.domain, round(u.used / u.max, 4)));
    default:
      return [];
  }
}

/** Readings of every rate and gauge rule now; a source that fails leaves its rules without readings. */
export async function readRules(rules: readonly Rule[], sources: AlertSources, now: number, onError: (rule: Rule, e: unknown) => void): Promise<Reading[]> {
  const rates = rules.filter((r) => METRICS[r.metric].kind === "rate");
  const out: Reading[] = [];
  try {
    out.push(...await rateReadings(rates, sources, now));
  } catch (e) {
    for (const rule of rates) onError(rule, e);
  }
  for (const rule of rules.filter((r) => METRICS[r.metric].kind === "gauge")) {
    try {
      out.push(...await gaugeReadings(rule, sources, now));
    } catch (e) {
      onError(rule, e);
    }
  }
  return out;
}

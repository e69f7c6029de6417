// The rate metrics, counted from the stat facts the store keeps (core/stats/facts.ts: live events
// and retention's rollups): per sending domain, the messages accepted in the window (the volume a
// rule's min_volume gates on), and the hard bounces, block bounces (by bounce class, as the stats
// count them) and complaints recorded in it. Rates are fractions of the volume.
import type { StatFact } from "../core/stats/facts.ts";
import { bounceCategory, isBounceClass } from "../core/bounce/index.ts";
import type { Metric } from "./rules.ts";

export interface DomainTally { volume: number; hard: number; block: number; complaints: number }

export function tallyByDomain(facts: readonly StatFact[]): Map<string, DomainTally> {
  const out = new Map<string, DomainTally>();
  for (const f of facts) {
    const t = out.get(f.domain) ?? { volume: 0, hard: 0, block: 0, complaints: 0 };
    out.set(f.domain, t);
    const k = f.key;
    if (k.type === "accepted") t.volume += f.n;
    else if (k.type === "complained") t.complaints += f.n;
    else if (k.type === "failed" && !k.temporary && k.reason !== "cancelled" && k.reason !== "suppressed") {
      const category = bounceCategory(isBounceClass(k.bounceClass) ? k.bounceClass : 1);
      if (category === "hard") t.hard += f.n;
      else if (category === "block") t.block += f.n;
    }
  }
  return out;
}

/** The rate `metric` measures in `t` (0 without volume). */
export function rateOf(metric: Metric, t: DomainTally): number {
  if (t.volume === 0) return 0;
  const n = metric === "hard_bounce_rate" ? t.hard : metric === "block_rate" ? t.block : metric === "complaint_rate" ? t.complaints : 0;
  return n / t.volume;
}

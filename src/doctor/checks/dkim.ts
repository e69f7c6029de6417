// dkim: per domain and published selector, the TXT at <selector>._domainkey.<domain> carries our
// public key (the p= tag compared as data, whitespace and tag order aside).
import { causeText, looked, type Looked } from "../lookup.ts";
import { defineCheck, type DomainSubject, type Verdict } from "../types.ts";
import { worst } from "../severity.ts";

export interface DkimFacts { keys: { selector: string; record: string; pending?: boolean; found: Looked<string[]> }[] }

/** The tags of a DKIM record (RFC 6376 §3.2): "v=DKIM1; k=rsa; p=…" → { v, k, p }, whitespace removed. */
export function dkimTags(record: string): Record<string, string> {
  return Object.fromEntries(record.split(";").map((t) => t.split("=")).filter((kv) => kv.length >= 2)
    .map(([k, ...v]) => [k!.trim().toLowerCase(), v.join("=").replace(/\s+/g, "")]));
}

/** One selector's state: ok (our key), error (missing or another key; warn for a pending key, which does not sign yet), unknown (no answer). */
function selectorState(k: DkimFacts["keys"][number], domain: string) {
  const st = publishedState(k, domain);
  return k.pending && st.severity === "error" ? { ...st, severity: "warn" as const, why: `${st.why} yet (a pending key: it signs once published)` } : st;
}

function publishedState({ selector, record, found }: DkimFacts["keys"][number], domain: string) {
  const name = `${selector}._domainkey.${domain}`;
  if (!found.ok) return found.missing ? { name, severity: "error" as const, why: "no record" } : { name, severity: "unknown" as const, why: causeText(found.cause) };
  const want = dkimTags(record).p;
  return found.records.some((r) => dkimTags(r.join("")).p === want) ? { name, severity: "ok" as const, why: "our key" }
    : { name, severity: "error" as const, why: "a different key than the one postern signs with" };
}

/** One verdict per domain over its published selectors (data.selectors says each one's state). */
export function judgeDkim(f: DkimFacts, s: DomainSubject): Verdict {
  const states = f.keys.map((k) => ({ ...selectorState(k, s.name), selector: k.selector, record: k.record }));
  const data = { selectors: Object.fromEntries(states.map((st) => [st.selector, { name: st.name, state: st.severity, why: st.why }])) };
  if (!states.length) return { severity: "error", summary: `${s.name} has no DKIM key`, fix: `postern domain show ${s.name}: the domain should hold a key`, data };
  const severity = worst(states.map((st) => st.severity));
  const bad = states.filter((st) => st.severity !== "ok");
  if (!bad.length) return { severity, summary: `${states.map((st) => st.name).join(" and ")} publish our keys`, fix: "", data };
  const summary = bad.map((st) => `${st.name}: ${st.why}`).join("; ");
  const fix = severity === "unknown" && bad.every((st) => st.severity === "unknown") ? "retry; check [mta] dns_servers"
    : `publish ${bad.filter((st) => st.severity === "error" || st.severity === "warn").map((st) => `TXT ${st.name}`).join(" and ")} exactly as \`postern domain dns ${s.name}\` prints`;
  return { severity, summary, fix, data };
}

export const dkim = defineCheck<DomainSubject, DkimFacts>({
  id: "dkim", over: "domain",
  async look(ctx, s) {
    const keys = await ctx.publishedKeys(s.name);
    return { keys: await Promise.all(keys.map(async (k) => ({ ...k, found: await looked(() => ctx.resolver.txt(`${k.selector}._domainkey.${s.name}`)) }))) };
  },
  judge: judgeDkim,
});

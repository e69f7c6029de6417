// dkim: per domain and published selector, the TXT at <selector>._domainkey.<domain> carries our
// public key (the p= tag compared as data, whitespace and tag order aside).
import { causeText, looked, type Looked } from "../lookup.ts";
import { defineCheck, type DomainSubject, type Verdict } from "../types.ts";

export interface DkimFacts { keys: { selector: string; record: string; found: Looked<string[]> }[] }

/** The tags of a DKIM record (RFC 6376 §3.2): "v=DKIM1; k=rsa; p=…" → { v, k, p }, whitespace removed. */
export function dkimTags(record: string): Record<string, string> {
  return Object.fromEntries(record.split(";").map((t) => t.split("=")).filter((kv) => kv.length >= 2)
    .map(([k, ...v]) => [k!.trim().toLowerCase(), v.join("=").replace(/\s+/g, "")]));
}

export function judgeDkim(f: DkimFacts, s: DomainSubject): (Verdict & { subject: string })[] {
  return f.keys.map(({ selector, record, found }) => {
    const subject = `${selector}._domainkey.${s.name}`;
    const data = { domain: s.name, selector, expected: record, found: found.ok ? found.records.map((r) => r.join("")) : [] };
    const fix = `publish TXT ${subject} "${record.slice(0, 40)}…" exactly as \`postern domain dns ${s.name}\` prints it`;
    if (!found.ok) {
      return found.missing ? { subject, severity: "error" as const, summary: `no DKIM record at ${subject}`, fix, data }
        : { subject, severity: "unknown" as const, summary: `DKIM record at ${subject} could not be looked up: ${causeText(found.cause)}`, fix: "retry; check [mta] dns_servers", data };
    }
    const want = dkimTags(record).p;
    const match = data.found.some((r) => dkimTags(r).p === want);
    return match ? { subject, severity: "ok" as const, summary: `${subject} publishes our key`, fix: "", data }
      : { subject, severity: "error" as const, summary: `${subject} publishes a different key than the one postern signs with`, fix, data };
  });
}

export const dkim = defineCheck<DomainSubject, DkimFacts>({
  id: "dkim", over: "domain",
  async look(ctx, s) {
    const keys = await ctx.publishedKeys(s.name);
    return { keys: await Promise.all(keys.map(async (k) => ({ ...k, found: await looked(() => ctx.resolver.txt(`${k.selector}._domainkey.${s.name}`)) }))) };
  },
  judge: judgeDkim,
});

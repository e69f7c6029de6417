// dmarc: a DMARC record at _dmarc.<domain>; p=none protects nothing yet (warn), none at all is an error
// (Gmail and Yahoo require one from bulk senders since 2024).
import { causeText, looked, type Looked } from "../lookup.ts";
import { defineCheck, type DomainSubject, type Verdict } from "../types.ts";
import { dkimTags } from "./dkim.ts";

export function judgeDmarc(found: Looked<string[]>, s: DomainSubject): Verdict {
  const name = `_dmarc.${s.name}`;
  const publish = `publish TXT ${name} "v=DMARC1; p=quarantine; rua=mailto:dmarc@${s.bounceDomain}" (start with p=none only while you read the reports)`;
  if (!found.ok && !found.missing) return { severity: "unknown", summary: `${name} could not be looked up: ${causeText(found.cause)}`, fix: "retry; check [mta] dns_servers", data: {} };
  const records = found.ok ? found.records.map((r) => r.join("")).filter((r) => /^v\s*=\s*DMARC1\b/i.test(r.trim())) : [];
  if (!records.length) return { severity: "error", summary: `no DMARC record at ${name}`, fix: publish, data: { records } };
  if (records.length > 1) return { severity: "error", summary: `${records.length} DMARC records at ${name}: receivers ignore them all`, fix: "keep exactly one v=DMARC1 record", data: { records } };
  const p = (dkimTags(records[0]!).p ?? "").toLowerCase();
  const data = { record: records[0], policy: p };
  if (p === "quarantine" || p === "reject") return { severity: "ok", summary: `DMARC p=${p}`, fix: "", data };
  if (p === "none") return { severity: "warn", summary: "DMARC p=none: receivers are asked to do nothing with mail that fails", fix: `once the reports (postern reports dmarc --domain ${s.name}) show your mail passing, raise ${name} to p=quarantine, then p=reject`, data };
  return { severity: "error", summary: `DMARC record at ${name} has no valid p= tag`, fix: publish, data };
}

export const dmarc = defineCheck<DomainSubject, Looked<string[]>>({
  id: "dmarc", over: "domain",
  look: (ctx, s) => looked(() => ctx.resolver.txt(`_dmarc.${s.name}`)),
  judge: judgeDmarc,
});

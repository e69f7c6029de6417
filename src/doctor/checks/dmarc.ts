// dmarc: the policy receivers apply to the domain's mail, found as they find it (mailauth's DMARC
// policy discovery through our resolver: the domain's own record, else its organizational
// domain's). p=none protects nothing yet (warn); no policy at all is an error (Gmail and Yahoo
// require one from bulk senders since 2024).
import { toMailauthResolver } from "../../dns.ts";
import { causeText, codeOf } from "../lookup.ts";
import { defineCheck, type DomainSubject, type Verdict } from "../types.ts";

/** What discovery found: the record that applies (and where), none, or a DNS failure. */
export type DmarcFacts =
  | { found: true; p: string; sp?: string; record: string; recordDomain: string; inherited: boolean }
  | { found: false }
  | { found: null; cause: string };

export async function discoverDmarc(resolver: Parameters<typeof toMailauthResolver>[0], domain: string): Promise<DmarcFacts> {
  // Loaded on first use, as the other mailauth users do.
  const getDmarcRecord = require("mailauth/lib/dmarc/get-dmarc-record") as (d: string, r: unknown) => Promise<false | Record<string, string | boolean>>;
  try {
    const r = await getDmarcRecord(domain, toMailauthResolver(resolver));
    if (!r) return { found: false };
    return { found: true, p: String(r.p ?? ""), sp: typeof r.sp === "string" ? r.sp : undefined, record: String(r.rr ?? ""),
      recordDomain: String(r.recordDomain ?? domain), inherited: r.isOrgRecord === true };
  } catch (e) {
    return { found: null, cause: codeOf(e) };
  }
}

export function judgeDmarc(f: DmarcFacts, s: DomainSubject): Verdict {
  const name = `_dmarc.${s.name}`;
  const publish = `publish TXT ${name} "v=DMARC1; p=quarantine; rua=mailto:dmarc@${s.bounceDomain}" (start with p=none only while you read the reports)`;
  if (f.found === null) return { severity: "unknown", summary: `the DMARC policy of ${s.name} could not be looked up: ${causeText(f.cause)}`, fix: "retry; check [mta] dns_servers", data: {} };
  if (!f.found) return { severity: "error", summary: `no DMARC policy applies to ${s.name} (no single valid v=DMARC1 record at ${name} or its organizational domain)`, fix: publish, data: {} };
  // A subdomain inheriting its organization's record gets sp= when there is one (RFC 7489 §6.3).
  const policy = f.inherited && f.sp ? f.sp : f.p;
  const data = { record: f.record, record_domain: f.recordDomain, inherited: f.inherited, policy };
  const where = f.inherited ? ` (inherited from _dmarc.${f.recordDomain})` : "";
  if (policy === "quarantine" || policy === "reject") return { severity: "ok", summary: `DMARC p=${policy}${where}`, fix: "", data };
  return { severity: "warn", summary: `DMARC p=none${where}: receivers are asked to do nothing with mail that fails`,
    fix: `once the reports (postern reports dmarc --domain ${s.name}) show your mail passing, raise _dmarc.${f.recordDomain} to p=quarantine, then p=reject`, data };
}

export const dmarc = defineCheck<DomainSubject, DmarcFacts>({
  id: "dmarc", over: "domain",
  look: (ctx, s) => discoverDmarc(ctx.resolver, s.name),
  judge: judgeDmarc,
});

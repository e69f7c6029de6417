// blocklist: one check per zone kind over the zone table: each egress address in every ip_zones
// zone, and each domain's sending, bounce and tracking host names in every domain_zones zone. A
// verdict per subject; its data holds one entry per zone (what `postern blocklists` keeps).
import { defineCheck, type BlocklistAnswer, type DomainSubject, type EgressSubject, type Verdict } from "../types.ts";

export function judgeBlocklist(entries: BlocklistAnswer[], subject: string): Verdict & { subject: string } {
  const listed = entries.filter((e) => e.state === "listed");
  const unknown = entries.filter((e) => e.state === "unknown");
  const data = { kind: entries[0]?.kind ?? "ip", entries: entries.map(({ zone, state, answer, cause }) => ({ zone, state, answer, cause })) };
  if (listed.length) {
    return { subject, severity: "error", summary: `${subject} is listed in ${listed.map((e) => `${e.zone} (${e.answer})`).join(", ")}`,
      fix: `look ${subject} up on each list's website for the reason, fix it (a compromised account, a bad list), then request removal there`, data };
  }
  if (unknown.length) {
    return { subject, severity: "unknown", summary: `${subject}: ${unknown.map((e) => `${e.zone}: ${e.cause}`).join("; ")}`,
      fix: "use a resolver of your own in [mta] dns_servers (not a public one), and a Spamhaus DQS key in [blocklists] spamhaus_dqs_key", data };
  }
  return { subject, severity: "ok", summary: `${subject} is on none of ${entries.length} lists`, fix: "", data };
}

export const blocklistIp = defineCheck<EgressSubject, BlocklistAnswer[]>({
  id: "blocklist", over: "egress", absent: "no egress address is known, so no address blocklist could be asked",
  look: (ctx, s) => ctx.blocklists.ask(s.address, "ip"),
  judge: (entries, s) => [judgeBlocklist(entries, s.address)],
});

export const blocklistDomain = defineCheck<DomainSubject, BlocklistAnswer[][]>({
  id: "blocklist", over: "domain",
  look: (ctx, s) => Promise.all([...new Set([s.name, s.bounceDomain, s.trackingHost])].map((n) => ctx.blocklists.ask(n, "domain"))),
  judge: (lists, s) => lists.filter((l) => l.length).map((l) => {
    const v = judgeBlocklist(l, l[0]!.subject);
    return { ...v, data: { ...v.data, domain: s.name } };
  }),
});

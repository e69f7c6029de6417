// blocklist: one check per zone kind over the zone table: each egress address in every ip_zones
// zone, and each domain's sending, bounce and tracking host names in every domain_zones zone. One
// verdict per address and per domain; its data holds one entry per (name, zone), which is what the
// blocklist history (`postern blocklists`) keeps.
import { defineCheck, type BlocklistAnswer, type DomainSubject, type EgressSubject, type Verdict } from "../types.ts";

export function judgeBlocklist(entries: BlocklistAnswer[], kind: BlocklistAnswer["kind"]): Verdict {
  const listed = entries.filter((e) => e.state === "listed");
  const unknown = entries.filter((e) => e.state === "unknown");
  const data = { kind, entries: entries.map(({ subject, zone, state, answer, cause }) => ({ subject, zone, state, answer, cause })) };
  if (listed.length) {
    return { severity: "error", summary: `listed: ${listed.map((e) => `${e.subject} in ${e.zone} (${e.answer})`).join(", ")}`,
      fix: `look ${[...new Set(listed.map((e) => e.subject))].join(", ")} up on each list's website for the reason, fix it (a compromised account, a bad list), then request removal there`, data };
  }
  if (unknown.length) {
    return { severity: "unknown", summary: unknown.map((e) => `${e.subject} in ${e.zone}: ${e.cause}`).join("; "),
      fix: "use a resolver of your own in [mta] dns_servers (not a public one), and a Spamhaus DQS key in [blocklists] spamhaus_dqs_key", data };
  }
  const names = [...new Set(entries.map((e) => e.subject))];
  const zones = [...new Set(entries.map((e) => e.zone))];
  return { severity: "ok", summary: `${names.join(", ")} on none of ${zones.length} list${zones.length === 1 ? "" : "s"}`, fix: "", data };
}

export const blocklistIp = defineCheck<EgressSubject, BlocklistAnswer[]>({
  id: "blocklist", over: "egress", absent: "no egress address is known, so no address blocklist could be asked",
  look: (ctx, s) => ctx.blocklists.ask(s.address, "ip"),
  // No zones configured: nothing to say.
  judge: (entries) => (entries.length ? judgeBlocklist(entries, "ip") : []),
});

export const blocklistDomain = defineCheck<DomainSubject, BlocklistAnswer[]>({
  id: "blocklist", over: "domain",
  look: async (ctx, s) => (await Promise.all([...new Set([s.name, s.bounceDomain, s.trackingHost])].map((n) => ctx.blocklists.ask(n, "domain")))).flat(),
  judge: (entries, s) => {
    if (!entries.length) return [];
    const v = judgeBlocklist(entries, "domain");
    return { ...v, data: { ...v.data, domain: s.name } };
  },
});

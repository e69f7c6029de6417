// spf: for the From domain and the bounce domain, SPF evaluated (mailauth, through our resolver)
// for every egress address must pass; a record that merely exists proves nothing.
import { toMailauthResolver } from "../../dns.ts";
import { defineCheck, type DoctorContext, type DomainSubject, type Severity, type Verdict } from "../types.ts";
import { worst } from "../severity.ts";

/** SPF's result for one (name, address): pass, fail, softfail, neutral, none, permerror, temperror. */
export interface SpfFacts { names: { name: string; role: "from" | "bounce"; results: { address: string; result: string; comment: string }[] }[] }

async function evaluate(ctx: DoctorContext, name: string, address: string, ehlo: string) {
  // Loaded on first use, as the other mailauth users do: a server that never runs the doctor never pays for it.
  const { spf } = require("mailauth/lib/spf") as typeof import("mailauth/lib/spf");
  try {
    const r = await spf({ sender: `postmaster@${name}`, ip: address, helo: ehlo, mta: ctx.mtaHostname,
      resolver: toMailauthResolver(ctx.resolver) as never, maxElapsedTime: ctx.probeTimeoutMs * 2 });
    return { address, result: String(r.status.result), comment: String(r.status.comment ?? "") };
  } catch (e) {
    return { address, result: "temperror", comment: (e as Error).message };
  }
}

const SEVERITY: Record<string, Severity> = { pass: "ok", temperror: "unknown" };

/** One verdict per domain: the worst of its From and bounce names over every egress address. */
export function judgeSpf(f: SpfFacts, s: DomainSubject): Verdict {
  const all = f.names.flatMap((n) => n.results.map((r) => ({ ...r, name: n.name, role: n.role })));
  const data = Object.fromEntries(f.names.map((n) => [n.role, { name: n.name, addresses: Object.fromEntries(n.results.map((r) => [r.address, r.result])) }]));
  if (!all.length) return { severity: "unknown", summary: "no egress address to evaluate SPF for", fix: "set [doctor] public_addresses or give mta.hostname an A/AAAA record", data };
  const severity = worst(all.map((r) => SEVERITY[r.result] ?? "error"));
  const bad = all.filter((r) => r.result !== "pass");
  const summary = bad.length ? `SPF is not pass for ${bad.map((r) => `${r.name} (${r.role}) from ${r.address}: ${r.result}`).join("; ")}`
    : `SPF of ${f.names.map((n) => n.name).join(" and ")} passes for ${[...new Set(all.map((r) => r.address))].join(", ")}`;
  const names = [...new Set(bad.map((r) => r.name))];
  const fix = severity === "ok" ? "" : severity === "unknown" && bad.every((r) => r.result === "temperror") ? "the SPF look-up failed (DNS); retry, or check [mta] dns_servers"
    : `publish at ${names.join(" and ")} an SPF record (TXT "v=spf1 …") that allows ${[...new Set(bad.map((r) => r.address))].join(", ")}: \`postern domain dns ${s.name}\` prints it`;
  return { severity, summary, fix, data };
}

export const spfCheck = defineCheck<DomainSubject, SpfFacts>({
  id: "spf", over: "domain",
  async look(ctx, s) {
    const egress = await ctx.egress();
    const names = [{ name: s.name, role: "from" as const }, { name: s.bounceDomain, role: "bounce" as const }];
    return { names: await Promise.all(names.map(async (n) => ({ ...n, results: await Promise.all(egress.map((e) => evaluate(ctx, n.name, e.address, e.ehlo))) }))) };
  },
  judge: judgeSpf,
});

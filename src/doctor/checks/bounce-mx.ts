// bounce-mx: bounces and receivers' reports come back to the bounce domain, so its MX must name
// mta.hostname or a host resolving to one of this server's addresses.
import { addressesOf, causeText, looked, type Looked } from "../lookup.ts";
import { defineCheck, type DomainSubject, type Verdict } from "../types.ts";
import type { MxRecord } from "../../dns.ts";

export interface BounceMxFacts { mx: Looked<MxRecord>; hosts: { host: string; addresses: string[] }[]; mtaHostname: string; server: string[] }

const norm = (n: string) => n.toLowerCase().replace(/\.$/, "");

export function judgeBounceMx(f: BounceMxFacts, s: DomainSubject): Verdict {
  const fix = `publish MX ${s.bounceDomain} → ${f.mtaHostname} (priority 10)`;
  if (!f.mx.ok) {
    return f.mx.missing ? { severity: "error", summary: `${s.bounceDomain} has no MX record: bounces and reports cannot come back`, fix, data: { bounce_domain: s.bounceDomain } }
      : { severity: "unknown", summary: `the MX of ${s.bounceDomain} could not be looked up: ${causeText(f.mx.cause)}`, fix: "retry; check [mta] dns_servers", data: { bounce_domain: s.bounceDomain } };
  }
  const data = { bounce_domain: s.bounceDomain, mx: f.mx.records.map((m) => m.exchange), hosts: f.hosts };
  const ours = f.hosts.find((h) => norm(h.host) === norm(f.mtaHostname) || h.addresses.some((a) => f.server.includes(a)));
  return ours ? { severity: "ok", summary: `${s.bounceDomain} MX ${ours.host} reaches this server`, fix: "", data }
    : { severity: "error", summary: `the MX of ${s.bounceDomain} (${data.mx.join(", ")}) does not reach this server`, fix, data };
}

export const bounceMx = defineCheck<DomainSubject, BounceMxFacts>({
  id: "bounce-mx", over: "domain",
  async look(ctx, s) {
    const mx = await looked(() => ctx.resolver.mx(s.bounceDomain));
    const hosts = mx.ok ? await Promise.all(mx.records.map(async (m) => {
      const a = await addressesOf(ctx.resolver, m.exchange);
      return { host: m.exchange, addresses: a.ok ? a.records : [] };
    })) : [];
    return { mx, hosts, mtaHostname: ctx.mtaHostname, server: [...await ctx.serverAddresses()] };
  },
  judge: judgeBounceMx,
});

// dnssec: may DANE be used? Only a resolver proven to validate is trusted (its AD bit; postern
// never validates itself): the root DNSKEY answers with AD and a deliberately broken name answers
// SERVFAIL ([mta] dnssec_broken_probe). With `[mta] dane = "on"` a resolver that fails the probe
// is an error (mail goes opportunistic, as Postfix does); in `auto` it is a warning (DANE stays
// off until the resolver validates); `off` asks nothing.
import { defineCheck, type MachineSubject, type Verdict } from "../types.ts";

export interface DnssecFacts { mode: "auto" | "on" | "off"; probe: { state: "on" | "off"; reason: string } | null }

const FIX = "run a local validating resolver (apt-get install unbound) and set [mta] dns_servers to it (docs/outbound-tls.md)";

export function judgeDnssec(f: DnssecFacts): Verdict {
  const data = { mode: f.mode, ...(f.probe ?? {}) };
  if (f.mode === "off" || !f.probe) return { severity: "ok", summary: "DANE is off ([mta] dane = \"off\"): the resolver is not asked", fix: "", data };
  if (f.probe.state === "on") return { severity: "ok", summary: `the resolver validates DNSSEC, so DANE is on: ${f.probe.reason}`, fix: "", data };
  return f.mode === "on"
    ? { severity: "error", summary: `[mta] dane = "on", but the resolver does not validate: ${f.probe.reason}; mail to DANE receivers goes without authentication`, fix: FIX, data }
    : { severity: "warn", summary: `DANE is off: ${f.probe.reason}`, fix: FIX, data };
}

export const dnssec = defineCheck<MachineSubject, DnssecFacts>({
  id: "dnssec", over: "machine",
  async look(ctx) {
    return { mode: ctx.dnssec.mode, probe: ctx.dnssec.mode === "off" ? null : await ctx.dnssec.probe() };
  },
  judge: (f) => [{ subject: "resolver", ...judgeDnssec(f) }],
});

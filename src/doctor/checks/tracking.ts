// tracking: the domain's tracking host (links and pixels) must resolve to this server, and with an
// https public_url present a certificate valid for its name.
import { probeTlsName, type TlsNameOutcome } from "../../net/tls-name.ts";
import { addressesOf, causeText, type Looked } from "../lookup.ts";
import { defineCheck, type DomainSubject, type Verdict } from "../types.ts";

export interface TrackingFacts { addresses: Looked<string>; server: string[]; tls: TlsNameOutcome | null }

export function judgeTracking(f: TrackingFacts, s: DomainSubject): Verdict {
  const host = s.trackingHost;
  const fix = `point ${host} at this server: CNAME ${host} → the host of [server] public_url, or A/AAAA → ${f.server.join(", ") || "this server's address"}`;
  if (!f.addresses.ok) {
    return f.addresses.missing ? { severity: "error", summary: `${host} does not resolve`, fix, data: { host } }
      : { severity: "unknown", summary: `${host} could not be looked up: ${causeText(f.addresses.cause)}`, fix: "retry; check [mta] dns_servers", data: { host } };
  }
  const data: Record<string, unknown> = { host, addresses: f.addresses.records, tls: f.tls };
  if (!f.addresses.records.some((a) => f.server.includes(a))) {
    return { severity: "error", summary: `${host} resolves to ${f.addresses.records.join(", ")}, not to this server`, fix, data };
  }
  if (f.tls && f.tls.valid === false) return { severity: "error", summary: `the certificate served for ${host} is not valid for it: ${f.tls.error}`, fix: `add ${host} to [tls] hostnames (ACME) or to your certificate`, data };
  if (f.tls && f.tls.valid === null) return { severity: "unknown", summary: `no TLS answer from ${host}:443: ${f.tls.error}`, fix: "check that the HTTPS listener is reachable on port 443", data };
  return { severity: "ok", summary: `${host} resolves to this server${f.tls ? " with a valid certificate" : ""}`, fix: "", data };
}

export const tracking = defineCheck<DomainSubject, TrackingFacts>({
  id: "tracking", over: "domain",
  async look(ctx, s) {
    const addresses = await addressesOf(ctx.resolver, s.trackingHost);
    const server = [...await ctx.serverAddresses()];
    const ours = addresses.ok ? addresses.records.find((a) => server.includes(a)) : undefined;
    return { addresses, server, tls: ctx.httpsTracking && ours ? await probeTlsName(ours, s.trackingHost, 443, ctx.probeTimeoutMs) : null };
  },
  judge: judgeTracking,
});

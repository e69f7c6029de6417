// The TLS policy of one MX host, as ONE pure function of what is known about it: the DANE look-up
// (src/dns/dane-lookup.ts), the domain's MTA-STS mode, and whether DANE is in force ([mta] dane
// and the resolver probe). The SMTP client only applies what this returns. RFC 7672 §2.2: a secure
// MX host with usable TLSA records gets authenticated TLS; a bogus or failed TLSA look-up defers
// (never a fall-back to cleartext, KumoMTA#543); no usable record means as if none was published.
// DANE takes precedence over MTA-STS (RFC 8461 §2).
import type { DaneDnsResult, TlsaRecord } from "../../dns.ts";

export type HostTlsPolicy =
  | { policy: "dane"; tls: "dane"; records: TlsaRecord[]; names: string[] }
  | { policy: "dane"; defer: string }
  | { policy: "mta-sts"; tls: "require" }
  | { policy: "opportunistic"; tls: "opportunistic" };

/** RFC 7672 §3.1: only DANE-TA(2) and DANE-EE(3), selectors 0/1, matching 0/1/2 are usable for SMTP. */
export const usableTlsa = (records: TlsaRecord[]): TlsaRecord[] =>
  records.filter((r) => (r.usage === 2 || r.usage === 3) && (r.selector === 0 || r.selector === 1) && r.matchingType >= 0 && r.matchingType <= 2);

export interface HostPolicyInput {
  host: string;
  /** The domain's MTA-STS mode ("enforce" requires validated TLS). */
  sts: "enforce" | "testing" | "none";
  /** null when DANE is not in force (off, or auto with a resolver not proven to validate): no look-up was made. */
  dane: DaneDnsResult | null;
}

export function hostTlsPolicy(input: HostPolicyInput): HostTlsPolicy {
  const d = input.dane;
  if (d && (d.status === "bogus" || d.status === "failed")) {
    return { policy: "dane", defer: `DANE: the TLSA look-up for ${input.host} ${d.status === "bogus" ? "is bogus" : "failed"} (${d.reason}); the mail waits` };
  }
  if (d?.status === "secure") {
    const records = usableTlsa(d.records);
    const names = [...new Set([input.host.toLowerCase(), d.baseDomain.toLowerCase()])];
    if (records.length) return { policy: "dane", tls: "dane", records, names };
  }
  return input.sts === "enforce" ? { policy: "mta-sts", tls: "require" } : { policy: "opportunistic", tls: "opportunistic" };
}

// DNSSEC as a non-validating client sees it: we never validate ourselves, we trust the AD bit of a validating
// resolver ([mta] dns_servers), as Postfix, Exim and every DANE MTA do. A question asked with DO
// comes back `secure` (AD set), `insecure` (answered without AD), `bogus` (SERVFAIL: how a
// validating resolver reports a signature that does not verify, and what it says for a broken
// zone; RFC 7672 §2.1.1 treats both alike: the mail waits) or `failed` (no answer: timeout, refused).
import type { Answer, RecordType } from "dns-packet";
import { DnsError, exchange, type DnsServer } from "./wire.ts";

export type SecureStatus = "secure" | "insecure" | "bogus" | "failed";

export interface SecureAnswer {
  status: SecureStatus;
  /** Records of the asked type (empty for NXDOMAIN/NODATA, which may still be secure: a proven denial). */
  answers: Answer[];
  ttl: number;
  /** Why, for bogus and failed. */
  reason?: string;
}

export interface SecureLookupOptions {
  servers: DnsServer[];
  timeoutMs?: number;
  /** Exchange function (tests may count queries); defaults to the wire. */
  exchange?: typeof exchange;
}

/** Asks `name`/`type` with DO set, each server in turn until one answers other than SERVFAIL. */
export async function lookupSecure(opts: SecureLookupOptions, name: string, type: RecordType): Promise<SecureAnswer> {
  const ex = opts.exchange ?? exchange;
  let result: SecureAnswer = { status: "failed", answers: [], ttl: 0, reason: "no DNS server configured" };
  for (const server of opts.servers) {
    try {
      const res = await ex(server, name, type, opts.timeoutMs ?? 5000, true);
      if (res.rcode === "NOERROR" || res.rcode === "NXDOMAIN") {
        return { status: res.ad ? "secure" : "insecure", answers: res.answers, ttl: res.ttl };
      }
      const status = res.rcode === "SERVFAIL" ? "bogus" : "failed";
      if (result.status !== "bogus") result = { status, answers: [], ttl: 0, reason: `${type} ${name}: ${res.rcode}` };
    } catch (e) {
      const code = e instanceof DnsError ? e.code : String(e);
      if (result.status !== "bogus") result = { status: "failed", answers: [], ttl: 0, reason: `${type} ${name}: ${code}` };
    }
  }
  return result;
}

/** Whether the resolver is proven to validate, and why not. */
export interface DnssecProbe { state: "on" | "off"; reason: string }

/**
 * Postfix's probe (the root zone's DNSKEY must come back with AD), plus a name whose signatures are
 * deliberately broken (`brokenName`, dnssec-failed.org on the Internet) that must answer SERVFAIL:
 * a resolver that sets AD without validating, or forwards to one, fails the second half.
 */
export async function probeDnssec(opts: SecureLookupOptions, brokenName: string): Promise<DnssecProbe> {
  const root = await lookupSecure(opts, ".", "DNSKEY");
  if (root.status !== "secure") {
    const why = root.status === "insecure" ? "answered without AD: it does not validate" : `did not answer (${root.reason})`;
    return { state: "off", reason: `the resolver's root DNSKEY ${why}` };
  }
  if (!root.answers.length) return { state: "off", reason: "the resolver gave no root DNSKEY" };
  if (!brokenName) return { state: "on", reason: "the root DNSKEY is validated (AD)" };
  const broken = await lookupSecure(opts, brokenName, "A");
  if (broken.status === "bogus") return { state: "on", reason: `the root DNSKEY is validated (AD) and ${brokenName} is refused (SERVFAIL)` };
  if (broken.status === "failed") return { state: "off", reason: `the broken-signature probe ${brokenName} got no answer (${broken.reason})` };
  return { state: "off", reason: `${brokenName}, whose signatures are broken, was answered: the resolver does not reject bogus data` };
}

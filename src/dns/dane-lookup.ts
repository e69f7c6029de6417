// What the DNS says about one MX host for DANE (RFC 7672 §2.2): is the MX record set secure, are
// the host's addresses secure, and its TLSA records at _25._tcp.<host>. Each answer's trust is the
// validating resolver's AD bit (dnssec.ts). An insecure step ends the walk (no DANE: MTA-STS or
// opportunistic TLS); a bogus or failed TLSA look-up is reported as such, so the mail waits.
// Not done: following a CNAME'd MX host to a secure target name (RFC 7672 §2.2.2 base-domain choice).
import type { Answer } from "dns-packet";
import { lookupSecure, type SecureLookupOptions } from "./dnssec.ts";

/** One TLSA record (RFC 6698 §2.1): the home of this type for the look-up, the policy (mta/delivery/dane.ts) and the match (dane-match.ts). */
export interface TlsaRecord { usage: number; selector: number; matchingType: number; data: Buffer }

/** What the DNS said about an MX host's DANE records. */
export type DaneDnsResult =
  | { status: "secure"; records: TlsaRecord[]; baseDomain: string }
  | { status: "insecure"; reason: string }
  | { status: "bogus" | "failed"; reason: string };

const CACHE_MS = 300_000;

const tlsaOf = (a: Answer): TlsaRecord => {
  const d = (a as { data: { usage: number; selector: number; matchingType: number; certificate: Buffer } }).data;
  return { usage: d.usage, selector: d.selector, matchingType: d.matchingType, data: Buffer.from(d.certificate) };
};

/** The MX step's verdict: null when the MX record set is secure, else what ends the walk. */
type MxVerdict = Exclude<DaneDnsResult, { status: "secure" }> | null;

/**
 * Answers by key, the promise shared while in flight (a domain's hosts are looked up together,
 * tls-policy.ts) and kept 5 minutes when `keep` says so; trouble is asked again next time.
 */
function sharedAnswers<T>(now: () => number, keep: (v: T) => boolean) {
  const cache = new Map<string, { at: number; value: Promise<T> }>();
  return (key: string, ask: () => Promise<T>): Promise<T> => {
    const hit = cache.get(key);
    if (hit && now() - hit.at < CACHE_MS) return hit.value;
    if (cache.size > 10_000) cache.clear();
    const entry = { at: now(), value: ask() };
    cache.set(key, entry);
    // A look-up that throws is not kept either (and its rejection is the caller's, not unhandled here).
    const forget = () => { if (cache.get(key) === entry) cache.delete(key); };
    entry.value.then((v) => { if (!keep(v)) forget(); }, forget);
    return entry.value;
  };
}

export function createDaneLookup(opts: SecureLookupOptions & { now: () => number }) {
  // The MX record set is the domain's, the rest the host's: a domain's hosts share one MX question,
  // and a host that serves many domains (a provider's MX) is asked about once for all of them.
  const mxOf = sharedAnswers<MxVerdict>(opts.now, (v) => v === null || v.status === "insecure");
  const hostOf = sharedAnswers<DaneDnsResult>(opts.now, (v) => v.status === "secure" || v.status === "insecure");

  async function askMx(domain: string): Promise<MxVerdict> {
    const mx = await lookupSecure(opts, domain, "MX");
    if (mx.status === "secure") return null;
    if (mx.status === "insecure") return { status: "insecure", reason: `the MX records of ${domain} are not signed` };
    return { status: mx.status, reason: mx.reason ?? "MX" };
  }

  async function askHost(host: string, port: number): Promise<DaneDnsResult> {
    // Both address families: the connection may use either, so both must be secure (a signed
    // zone proves an absent AAAA with NSEC, which is secure too).
    for (const a of await Promise.all([lookupSecure(opts, host, "A"), lookupSecure(opts, host, "AAAA")])) {
      if (a.status === "insecure") return { status: "insecure", reason: `the addresses of ${host} are not signed` };
      if (a.status !== "secure") return { status: a.status, reason: a.reason ?? "A/AAAA" };
    }
    const base = host.replace(/\.$/, "");
    const tlsa = await lookupSecure(opts, `_${port}._tcp.${base}`, "TLSA");
    if (tlsa.status === "insecure") return { status: "insecure", reason: `the TLSA records of ${host} are not signed` };
    if (tlsa.status !== "secure") return { status: tlsa.status, reason: tlsa.reason ?? "TLSA" };
    return { status: "secure", records: tlsa.answers.map(tlsaOf), baseDomain: base };
  }

  return {
    /** DANE facts for `host` (an MX of `domain`); secure and insecure answers are reused for 5 minutes, trouble is asked again. */
    async forHost(domain: string, host: string, port = 25): Promise<DaneDnsResult> {
      // The implicit MX (the domain is its own host) has no MX record set to be secure.
      if (host.toLowerCase() !== domain.toLowerCase()) {
        const mx = await mxOf(domain.toLowerCase(), () => askMx(domain));
        if (mx) return mx;
      }
      return hostOf(`${host}|${port}`.toLowerCase(), () => askHost(host, port));
    },
  };
}

export type DaneDns = ReturnType<typeof createDaneLookup>;

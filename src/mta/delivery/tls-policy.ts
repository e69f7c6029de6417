// MTA-STS (RFC 8461): which MX hosts may be used and whether TLS is required. The policy is fetched
// by sts-fetch.ts (its text kept for TLS-RPT) and matched by mailauth. Static routes ([mta.routes])
// are the operator's choice and skip MTA-STS. mailauth is loaded on the first policy lookup (about
// 20 MB of a server's memory, for a server that may route statically).
import type { DaneDnsResult, Resolver } from "../../dns.ts";
import type { Hop } from "./hops.ts";
import { hostTlsPolicy, type HostTlsPolicy } from "./dane.ts";
import { fetchStsPolicy, mtaSts, type StsPolicy } from "./sts-fetch.ts";

const POLICY_CACHE_MS = 3_600_000;
const MAX_CACHED_POLICIES = 10_000;

export interface TlsDecision {
  hops: Hop[];
  tls: "opportunistic" | "require";
  /** Set when enforce mode leaves no usable MX (RFC 8461 §5.1: do not deliver, try later). */
  error?: string;
  /** Each MX host's policy (dane.ts), by host name; absent for static routes. */
  perHost?: Record<string, HostTlsPolicy>;
  /** An enforced MTA-STS policy's lines (RFC 8460 §4.3 policy-string), for TLS-RPT. */
  stsLines?: string[];
}

/**
 * The lines of a policy given without its text (a test's fetchPolicy): version, mode, each mx,
 * max_age, in RFC 8461 §3.2's order. A fetched policy keeps its own lines (sts-fetch.ts).
 */
export function stsPolicyLines(p: { version?: string; mode?: string; mx?: string[]; maxAge?: number }): string[] {
  return [`version: ${p.version ?? "STSv1"}`, `mode: ${p.mode}`, ...(p.mx ?? []).map((m) => `mx: ${m}`), ...(p.maxAge !== undefined ? [`max_age: ${p.maxAge}`] : [])];
}

/** DANE facts for MX hosts (src/dns/dane-lookup.ts) and whether DANE is in force now (dane-state.ts). */
export interface DaneSource { active(): boolean; forHost(domain: string, host: string, port: number): Promise<DaneDnsResult> }

/** The domain's MTA-STS mode as dane.ts takes it: a decision that requires TLS came from an enforced policy. */
const stsModeOf = (sts: TlsDecision) => (sts.tls === "require" ? "enforce" : "none");

type PolicyFetcher = (domain: string, known: unknown) => Promise<{ policy?: unknown }>;

export function createTlsPolicy(deps: { resolver: Resolver; now: () => number; fetchPolicy?: PolicyFetcher; dane?: DaneSource }) {
  const cache = new Map<string, { policy: unknown; at: number }>();
  // The _mta-sts TXT record, then the policy over HTTPS (RFC 8461 §3).
  const fetchPolicy: PolicyFetcher = deps.fetchPolicy
    ?? (async (domain, known) => ({ policy: await fetchStsPolicy(domain, known as StsPolicy | null, { resolver: deps.resolver, now: deps.now }) }));

  async function policyFor(domain: string): Promise<{ mode?: string; mx?: string[] }> {
    const hit = cache.get(domain);
    if (hit && deps.now() - hit.at < POLICY_CACHE_MS) return hit.policy as { mode?: string };
    const result = await fetchPolicy(domain, hit?.policy ?? null);
    const policy = (result.policy ?? { mode: "none" }) as { mode?: string };
    if (cache.size >= MAX_CACHED_POLICIES) cache.delete(cache.keys().next().value!);
    cache.set(domain, { policy, at: deps.now() });
    return policy;
  }

  // An enforced policy's hops, matched once per hops array (delivery's cached hops) and policy
  // (cached an hour), not host by host at every decision: large mailbox providers enforce MTA-STS.
  const enforced = new WeakMap<Hop[], { policy: object; decision: TlsDecision }>();
  async function stsDecision(domain: string, hops: Hop[]): Promise<TlsDecision> {
    let policy: { mode?: string };
    try { policy = await policyFor(domain); } catch { return { hops, tls: "opportunistic" }; }
    if (policy.mode !== "enforce") return { hops, tls: "opportunistic" };
    const known = enforced.get(hops);
    if (known?.policy === policy) return known.decision;
    const allowed = hops.filter((h) => (mtaSts().validateMx(h.host, policy as never) as { valid: boolean }).valid);
    const stsLines = (policy as { lines?: string[] }).lines ?? stsPolicyLines(policy);
    const decision: TlsDecision = allowed.length ? { hops: allowed, tls: "require", stsLines }
      : { hops: [], tls: "require", error: `no MX of ${domain} matches its MTA-STS policy`, stsLines };
    enforced.set(hops, { policy, decision });
    return decision;
  }

  // DANE not in force: every host of a domain has the domain's MTA-STS policy. The hops of a
  // domain are one array for as long as delivery caches them (attempt.ts hopsFor), so the record
  // is made once per array, and a decision then does no per-host work at all.
  const uniform = { require: new WeakMap<Hop[], Record<string, HostTlsPolicy>>(), opportunistic: new WeakMap<Hop[], Record<string, HostTlsPolicy>>() };
  function withoutDane(hops: Hop[], sts: TlsDecision): Record<string, HostTlsPolicy> {
    const made = uniform[sts.tls].get(hops);
    if (made) return made;
    const policy = Object.freeze(hostTlsPolicy({ host: "", sts: stsModeOf(sts), dane: null }));
    const all = Object.freeze(Object.fromEntries(hops.map((h) => [h.host, policy])));
    uniform[sts.tls].set(hops, all);
    return all;
  }

  /** Per MX host: the DANE facts and the MTA-STS mode, through the one pure function of dane.ts. */
  async function withDane(dane: DaneSource, domain: string, hops: Hop[], sts: TlsDecision): Promise<Record<string, HostTlsPolicy>> {
    const portOf = new Map<string, number>();
    for (const h of hops) if (!portOf.has(h.host)) portOf.set(h.host, h.port);
    const hosts = [...portOf.keys()];
    const facts = await Promise.all(hosts.map((h) => dane.forHost(domain, h, portOf.get(h)!)));
    return Object.fromEntries(hosts.map((h, i) => [h, hostTlsPolicy({ host: h, sts: stsModeOf(sts), dane: facts[i]! })]));
  }

  return {
    async decide(domain: string, hops: Hop[]): Promise<TlsDecision> {
      if (hops.every((h) => h.isStaticRoute)) return { hops, tls: "opportunistic" };
      const sts = await stsDecision(domain, hops);
      if (!deps.dane?.active()) return { ...sts, perHost: withoutDane(hops, sts) };
      // DANE first (RFC 8461 §2): a host with usable TLSA records is tried even where MTA-STS would not list it.
      const all = await withDane(deps.dane, domain, hops, sts);
      const daneHops = hops.filter((h) => all[h.host]!.policy === "dane" && !sts.hops.includes(h));
      const chosen = [...sts.hops, ...daneHops].sort((a, b) => hops.indexOf(a) - hops.indexOf(b));
      if (!chosen.length) return { ...sts, perHost: all };
      return { hops: chosen, tls: sts.tls, perHost: all, ...(sts.stsLines ? { stsLines: sts.stsLines } : {}) };
    },
  };
}

export type TlsPolicy = ReturnType<typeof createTlsPolicy>;

// MTA-STS (RFC 8461) through mailauth: which MX hosts may be used and whether TLS is required.
// Static routes ([mta.routes]) are the operator's choice and skip MTA-STS. mailauth is loaded on
// the first policy lookup (about 20 MB of a server's memory, for a server that may route statically).
import { toMailauthResolver, type Resolver } from "../../dns.ts";
import type { Hop } from "./hops.ts";

const POLICY_CACHE_MS = 3_600_000;
const MAX_CACHED_POLICIES = 10_000;

export interface TlsDecision {
  hops: Hop[];
  tls: "opportunistic" | "require";
  /** Set when enforce mode leaves no usable MX (RFC 8461 §5.1: do not deliver, try later). */
  error?: string;
}

type PolicyFetcher = (domain: string, known: unknown) => Promise<{ policy?: unknown }>;
type MtaSts = typeof import("mailauth/lib/mta-sts.js");
const mtaSts = (): MtaSts => require("mailauth/lib/mta-sts.js") as MtaSts;

export function createTlsPolicy(deps: { resolver: Resolver; now: () => number; fetchPolicy?: PolicyFetcher }) {
  const cache = new Map<string, { policy: unknown; at: number }>();
  const resolver = toMailauthResolver(deps.resolver);
  // mailauth discovers the _mta-sts TXT record and fetches the policy over HTTPS (RFC 8461 §3).
  const fetchPolicy: PolicyFetcher = deps.fetchPolicy
    ?? ((domain, known) => mtaSts().getPolicy(domain, known as never, { resolver: resolver as never, timeout: 10_000 }) as Promise<{ policy?: unknown }>);

  async function policyFor(domain: string): Promise<{ mode?: string; mx?: string[] }> {
    const hit = cache.get(domain);
    if (hit && deps.now() - hit.at < POLICY_CACHE_MS) return hit.policy as { mode?: string };
    const result = await fetchPolicy(domain, hit?.policy ?? null);
    const policy = (result.policy ?? { mode: "none" }) as { mode?: string };
    if (cache.size >= MAX_CACHED_POLICIES) cache.delete(cache.keys().next().value!);
    cache.set(domain, { policy, at: deps.now() });
    return policy;
  }

  return {
    async decide(domain: string, hops: Hop[]): Promise<TlsDecision> {
      if (hops.every((h) => h.isStaticRoute)) return { hops, tls: "opportunistic" };
      let policy: { mode?: string };
      try { policy = await policyFor(domain); } catch { return { hops, tls: "opportunistic" }; }
      if (policy.mode !== "enforce") return { hops, tls: "opportunistic" };
      const allowed = hops.filter((h) => (mtaSts().validateMx(h.host, policy as never) as { valid: boolean }).valid);
      if (!allowed.length) return { hops: [], tls: "require", error: `no MX of ${domain} matches its MTA-STS policy` };
      return { hops: allowed, tls: "require" };
    },
  };
}

export type TlsPolicy = ReturnType<typeof createTlsPolicy>;

// "This server's addresses" (contract §13): what a tracking host (and, for the doctor, a bounce
// domain's MX) must resolve to. One function, so every check asks the same question: the
// configured public addresses when given, else the egress sources' addresses and the A/AAAA of
// mta.hostname, looked up through the one resolver ([mta] dns_servers).
import { isIP } from "node:net";
import type { Resolver } from "../dns.ts";

export interface ServerAddressDeps {
  /** Addresses egress sources bind to ([mta.egress.*] source_address); the machine default has none. */
  egressAddresses: readonly string[];
  mtaHostname: string;
  resolver: Resolver;
  /** `[doctor] public_addresses` where configured: they replace the default. */
  publicAddresses?: readonly string[];
}

/** Lower-cased, IPv6 in its shortest form, so that answers and configuration compare equal. */
export function normalizeAddress(a: string): string {
  const v = a.trim().toLowerCase();
  if (isIP(v) !== 6) return v;
  try { return new URL(`http://[${v}]/`).hostname.slice(1, -1); } catch { return v; }
}

/** The A and AAAA answers for `name` (addresses only: a CNAME chain's names are dropped); null when DNS failed. */
export async function addressesOf(resolver: Resolver, name: string): Promise<{ addresses: string[]; error: string | null }> {
  const results = await Promise.allSettled([resolver.a(name), resolver.aaaa(name)]);
  const addresses: string[] = [];
  let error: string | null = null;
  for (const r of results) {
    if (r.status === "fulfilled") addresses.push(...r.value.filter((v) => isIP(v)).map(normalizeAddress));
    else {
      const code = (r.reason as { code?: string })?.code ?? "";
      // No such name or no record of that type is an answer; a timeout or SERVFAIL is not.
      if (!["ENOTFOUND", "ENODATA", "NXDOMAIN", "ENONAME"].includes(code)) error = code || String((r.reason as Error)?.message ?? r.reason);
    }
  }
  return { addresses: [...new Set(addresses)], error: addresses.length ? null : error };
}

export async function serverAddresses(deps: ServerAddressDeps): Promise<string[]> {
  if (deps.publicAddresses?.length) return [...new Set(deps.publicAddresses.map(normalizeAddress))];
  const out = new Set(deps.egressAddresses.filter((a) => isIP(a)).map(normalizeAddress));
  if (deps.mtaHostname) for (const a of (await addressesOf(deps.resolver, deps.mtaHostname)).addresses) out.add(a);
  return [...out];
}

// The one door to DNS. Everything that resolves (MX, validation, domain verification, DKIM/SPF/
// DMARC/MTA-STS checks through mailauth, bot MX look-ups) takes a Resolver, so that tests can use
// a MockResolver filled from a map. The real one speaks DNS itself (src/dns/): see wire.ts for why.
import { createWireResolver } from "./dns/resolver.ts";
import { serversFrom } from "./dns/servers.ts";
import { createDaneLookup } from "./dns/dane-lookup.ts";
import { probeDnssec } from "./dns/dnssec.ts";

export type { DnssecProbe } from "./dns/dnssec.ts";
export type { DaneDnsResult, TlsaRecord } from "./dns/dane-lookup.ts";

export type { MxRecord, Resolver } from "./dns/types.ts";
import type { MxRecord, Resolver } from "./dns/types.ts";

/** DNS error codes that mean "the name or record does not exist" rather than "try again". */
export const NOT_FOUND_CODES = new Set(["ENOTFOUND", "ENODATA", "NXDOMAIN", "ENONAME"]);

/** The shared caching resolver, asking `servers` ("host:port" strings) when given, else the
 *  nameservers of /etc/resolv.conf. */
export function createSystemResolver(servers: string[] = [], opts: { now?: () => number; timeoutMs?: number; maxTtlSeconds?: number; negativeTtlSeconds?: number } = {}): Resolver {
  return createWireResolver({ servers: serversFrom(servers), now: opts.now ?? (() => Date.now()), timeoutMs: opts.timeoutMs ?? 5000,
    maxTtlSeconds: opts.maxTtlSeconds, negativeTtlSeconds: opts.negativeTtlSeconds });
}

export { reverseName, reversedLabels } from "./dns/reverse.ts";
/** DNSSEC through the same servers (a validating resolver's AD bit): MX hosts' DANE facts and the resolver probe. */
export function createDnssecClient(servers: string[] = [], opts: { now?: () => number; timeoutMs?: number } = {}) {
  const lookup = { servers: serversFrom(servers), timeoutMs: opts.timeoutMs ?? 5000 };
  const dane = createDaneLookup({ ...lookup, now: opts.now ?? (() => Date.now()) });
  return { forHost: dane.forHost, probe: (brokenName: string) => probeDnssec(lookup, brokenName) };
}

export type DnssecClient = ReturnType<typeof createDnssecClient>;

/** A resolver filled from a map, for tests: `{ "example.com": { mx: [...], a: [...] } }`. */
export interface MockZone {
  mx?: MxRecord[];
  txt?: string[][];
  a?: string[];
  aaaa?: string[];
  cname?: string[];
}

export function createMockResolver(zones: Record<string, MockZone>): Resolver {
  const find = <K extends keyof MockZone>(name: string, kind: K): NonNullable<MockZone[K]> => {
    const zone = zones[name.toLowerCase().replace(/\.$/, "")];
    const value = zone?.[kind];
    if (!value || (Array.isArray(value) && value.length === 0)) {
      const err = new Error(`${kind} ${name}: not found`) as Error & { code: string };
      err.code = zone ? "ENODATA" : "ENOTFOUND";
      throw err;
    }
    return value as NonNullable<MockZone[K]>;
  };
  return {
    mx: async (n) => find(n, "mx"),
    txt: async (n) => find(n, "txt"),
    a: async (n) => find(n, "a"),
    aaaa: async (n) => find(n, "aaaa"),
    cname: async (n) => find(n, "cname"),
  };
}

/** Adapter for mailauth, which wants `resolver(name, rrtype)`. */
export function toMailauthResolver(resolver: Resolver) {
  return async (name: string, rr: string): Promise<unknown> => {
    switch (rr.toUpperCase()) {
      case "MX": return resolver.mx(name);
      case "TXT": return resolver.txt(name);
      case "A": return resolver.a(name);
      case "AAAA": return resolver.aaaa(name);
      case "CNAME": return resolver.cname(name);
      case "PTR": if (resolver.ptr) return resolver.ptr(name);
      // falls through: a resolver without PTR answers "not found"
      default: {
        const err = new Error(`unsupported rrtype ${rr}`) as Error & { code: string };
        err.code = "ENOTFOUND";
        throw err;
      }
    }
  };
}

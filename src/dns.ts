// The one door to DNS. Everything that resolves (MX, validation, DKIM/SPF checks, bot MX look-ups)
// takes a Resolver so that tests can use a MockResolver filled from a map.
import { Resolver as NodeResolver } from "node:dns/promises";

export interface MxRecord {
  exchange: string;
  priority: number;
}

export interface Resolver {
  mx(name: string): Promise<MxRecord[]>;
  txt(name: string): Promise<string[][]>;
  a(name: string): Promise<string[]>;
  aaaa(name: string): Promise<string[]>;
  cname(name: string): Promise<string[]>;
}

/** DNS error codes that mean "the name or record does not exist" rather than "try again". */
export const NOT_FOUND_CODES = new Set(["ENOTFOUND", "ENODATA", "NXDOMAIN", "ENONAME"]);

/** Node's resolver, pointed at `servers` ("host:port" strings) when given, else the system's. */
export function createSystemResolver(servers: string[] = [], timeoutMs = 5000): Resolver {
  const r = new NodeResolver({ timeout: timeoutMs, tries: 2 });
  if (servers.length) r.setServers(servers);
  return {
    mx: (n) => r.resolveMx(n),
    txt: (n) => r.resolveTxt(n),
    a: (n) => r.resolve4(n),
    aaaa: (n) => r.resolve6(n),
    cname: (n) => r.resolveCname(n),
  };
}

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
      default: {
        const err = new Error(`unsupported rrtype ${rr}`) as Error & { code: string };
        err.code = "ENOTFOUND";
        throw err;
      }
    }
  };
}

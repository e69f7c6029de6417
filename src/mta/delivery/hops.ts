// Next hops for a recipient domain: [mta.routes] (exact domain, then "*") first, else MX by
// preference (RFC 5321 §5.1), else the implicit MX (the domain's own A/AAAA); a null MX
// (RFC 7505) or a name that does not exist fails permanently.
import { NOT_FOUND_CODES, type Resolver } from "../../dns.ts";

export interface Hop {
  host: string;
  port: number;
  /** True when the hop came from [mta.routes]: MTA-STS does not apply to a configured relay. */
  isStaticRoute: boolean;
}

export type HopResult = { hops: Hop[] } | { error: { permanent: boolean; message: string; enhancedCode: string } };

const SMTP_PORT = 25;

export function parseHop(text: string, isStaticRoute: boolean): Hop {
  const m = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(text.trim());
  return { host: m?.[1] ?? text, port: m?.[2] ? Number(m[2]) : SMTP_PORT, isStaticRoute };
}

/** Picks a static route for `domain`, if any (exact match, then "*"). */
export function staticRoute(domain: string, routes: Readonly<Record<string, string>>): Hop | null {
  const hit = routes[domain] ?? routes[domain.toLowerCase()] ?? routes["*"];
  return hit ? parseHop(hit, true) : null;
}

const dnsCode = (e: unknown) => (e as { code?: string })?.code ?? "";

/** Resolves the next hops for `domain`. Outcomes are values: DNS trouble is a temporary error. */
export async function resolveNextHops(domain: string, deps: { resolver: Resolver; routes: Readonly<Record<string, string>> }): Promise<HopResult> {
  const route = staticRoute(domain, deps.routes);
  if (route) return { hops: [route] };
  try {
    const mx = await deps.resolver.mx(domain);
    // RFC 7505 §3: a single MX of "." with preference 0 says the domain accepts no mail.
    if (mx.length === 1 && (mx[0]!.exchange === "" || mx[0]!.exchange === ".")) {
      return { error: { permanent: true, message: `${domain} does not accept mail (null MX)`, enhancedCode: "5.1.10" } };
    }
    const sorted = [...mx].sort((a, b) => a.priority - b.priority);
    return { hops: sorted.map((m) => ({ host: m.exchange.replace(/\.$/, ""), port: SMTP_PORT, isStaticRoute: false })) };
  } catch (e) {
    if (!NOT_FOUND_CODES.has(dnsCode(e))) return { error: { permanent: false, message: `MX lookup for ${domain} failed: ${dnsCode(e) || String(e)}`, enhancedCode: "4.4.3" } };
  }
  return implicitMx(domain, deps.resolver);
}

// RFC 5321 §5.1: with no MX records, the domain itself is the one host, if it has an address.
async function implicitMx(domain: string, resolver: Resolver): Promise<HopResult> {
  let sawTempError = false;
  for (const lookup of [resolver.a, resolver.aaaa]) {
    try {
      if ((await lookup(domain)).length) return { hops: [{ host: domain, port: SMTP_PORT, isStaticRoute: false }] };
    } catch (e) {
      if (!NOT_FOUND_CODES.has(dnsCode(e))) sawTempError = true;
    }
  }
  return sawTempError
    ? { error: { permanent: false, message: `address lookup for ${domain} failed`, enhancedCode: "4.4.3" } }
    : { error: { permanent: true, message: `${domain} has no MX or address records`, enhancedCode: "5.1.2" } };
}

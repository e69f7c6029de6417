// Next hops for a recipient domain: [mta.routes] (exact domain, then "*") first, else MX by
// preference (RFC 5321 §5.1), else the implicit MX (the domain's own A/AAAA); a null MX
// (RFC 7505) or a name that does not exist fails permanently. Every MX host's address comes from
// the same resolver as the MX records ([mta] dns_servers): the system resolver may not know a name
// the configured DNS does (a split-horizon or test DNS), and one MTA must not see two DNS views.
import { NOT_FOUND_CODES, type Resolver } from "../../dns.ts";

export interface Hop {
  /** The MX host's name (TLS SNI, MTA-STS matching, `mx` in events), or a static route's host. */
  host: string;
  /** The address to connect to, resolved through [mta] dns_servers; absent: connect to `host`
   *  (static routes, which may name a relay the system resolver or /etc/hosts knows). */
  address?: string;
  port: number;
  /** True when the hop came from [mta.routes]: MTA-STS does not apply to a configured relay. */
  isStaticRoute: boolean;
}

export type HopError = { permanent: boolean; message: string; enhancedCode: string };
export type HopResult = { hops: Hop[] } | { error: HopError };

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

/** A host's addresses, IPv4 first (a host without an IPv6 route fails fast on v4 first, as
 *  Postfix's smtp_address_preference = ipv4 would); `temporary` when a look-up failed without an answer. */
async function addressesOf(host: string, resolver: Resolver): Promise<{ addresses: string[]; temporary: boolean }> {
  const results = await Promise.allSettled([resolver.a(host), resolver.aaaa(host)]);
  const addresses = results.flatMap((r) => (r.status === "fulfilled" ? r.value : []));
  const temporary = results.some((r) => r.status === "rejected" && !NOT_FOUND_CODES.has(dnsCode(r.reason)));
  return { addresses, temporary };
}

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
    const sorted = [...mx].sort((a, b) => a.priority - b.priority).map((m) => m.exchange.replace(/\.$/, ""));
    return mxHops(domain, sorted, deps.resolver);
  } catch (e) {
    if (!NOT_FOUND_CODES.has(dnsCode(e))) return { error: { permanent: false, message: `MX lookup for ${domain} failed: ${dnsCode(e) || String(e)}`, enhancedCode: "4.4.3" } };
  }
  return implicitMx(domain, deps.resolver);
}

// RFC 5321 §5.1: each MX host's addresses in turn; a host without addresses is skipped. When no
// MX host has an address the mail waits (like Postfix's "MX host has no address" deferral): the
// domain's DNS is broken now, not the recipient.
async function mxHops(domain: string, hosts: string[], resolver: Resolver): Promise<HopResult> {
  const resolved = await Promise.all(hosts.map((h) => addressesOf(h, resolver)));
  const hops = hosts.flatMap((host, i) => resolved[i]!.addresses.map((address) => ({ host, address, port: SMTP_PORT, isStaticRoute: false })));
  if (hops.length) return { hops };
  const why = resolved.some((r) => r.temporary) ? "could not be resolved" : "have no address";
  return { error: { permanent: false, message: `the MX hosts of ${domain} (${hosts.join(", ")}) ${why}`, enhancedCode: "4.4.3" } };
}

// RFC 5321 §5.1: with no MX records, the domain itself is the one host, if it has an address.
async function implicitMx(domain: string, resolver: Resolver): Promise<HopResult> {
  const { addresses, temporary } = await addressesOf(domain, resolver);
  if (addresses.length) return { hops: addresses.map((address) => ({ host: domain, address, port: SMTP_PORT, isStaticRoute: false })) };
  return temporary
    ? { error: { permanent: false, message: `address lookup for ${domain} failed`, enhancedCode: "4.4.3" } }
    : { error: { permanent: true, message: `${domain} has no MX or address records`, enhancedCode: "5.1.2" } };
}

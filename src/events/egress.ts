// Guard against webhook targets that point inside the network (SSRF): loopback, private,
// link-local, CGNAT and metadata ranges are refused unless webhooks.allow_private is set.
import { BlockList, isIP } from "node:net";
import type { Resolver } from "../dns.ts";

const PRIVATE = new BlockList();
for (const [net, bits] of [["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
  ["192.0.0.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["224.0.0.0", 4], ["240.0.0.0", 4]] as const) PRIVATE.addSubnet(net, bits, "ipv4");
// NAT64 addresses can reach IPv4 space behind the guard: refused as a whole.
for (const [net, bits] of [["::", 128], ["::1", 128], ["64:ff9b::", 96], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8]] as const) {
  PRIVATE.addSubnet(net, bits, "ipv6");
}
// IPv4-mapped addresses (::ffff:0:0/96, which URL parsers print in hex) are refused as a whole too,
// from a list of their own: BlockList also matches IPv4 addresses against IPv4-mapped IPv6 rules,
// so this rule in PRIVATE would refuse every IPv4 address.
const MAPPED = new BlockList();
MAPPED.addSubnet("::ffff:0:0", 96, "ipv6");

export function isPrivateAddress(ip: string): boolean {
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1] ?? ip;
  const kind = isIP(v4);
  if (kind === 4) return PRIVATE.check(v4, "ipv4");
  if (kind === 6) return PRIVATE.check(v4, "ipv6") || MAPPED.check(v4, "ipv6");
  return true;
}

/** Why a URL may not be called; `isTemporary` when only DNS failed (worth trying again later). */
export interface EgressRefusal { reason: string; isTemporary: boolean }

/** Null when `url` may be called, else why not. Only http and https, whatever allow_private says. */
export async function egressVerdict(url: string, opts: { allowPrivate: boolean; resolver: Resolver }): Promise<EgressRefusal | null> {
  let parsed: URL;
  try { parsed = new URL(url); } catch { return { reason: "not a valid URL", isTemporary: false }; }
  // fetch also reads file: and data: URLs: a customer's URL must never reach the local disk.
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return { reason: `${parsed.protocol} URLs are not allowed`, isTemporary: false };
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  if (opts.allowPrivate) return null;
  if (host === "localhost" || host.endsWith(".localhost")) return { reason: `${host} is a loopback name`, isTemporary: false };
  const addresses = isIP(host) ? [host] : [...(await opts.resolver.a(host).catch(() => [])), ...(await opts.resolver.aaaa(host).catch(() => []))];
  if (addresses.length === 0) return { reason: `${host} does not resolve`, isTemporary: true };
  const bad = addresses.find(isPrivateAddress);
  return bad ? { reason: `${host} resolves to a private or loopback address (${bad}); set webhooks.allow_private to allow it`, isTemporary: false } : null;
}

/** Null when `url` may be called, else the reason it may not. */
export async function checkEgress(url: string, opts: { allowPrivate: boolean; resolver: Resolver }): Promise<string | null> {
  return (await egressVerdict(url, opts))?.reason ?? null;
}

export interface GuardedFetchOptions {
  allowPrivate: boolean;
  resolver: Resolver;
  timeoutMs: number;
}

/**
 * fetch for URLs that customers give us (webhooks, OAuth token URLs, bot callbacks): checks the
 * target first and never follows redirects (a 3xx to an internal address would bypass the check).
 * The name is resolved again by fetch itself, so a DNS answer that changes in between (rebinding)
 * is not caught: set webhooks.allow_private = false and keep internal names out of public DNS.
 */
export async function guardedFetch(url: string, init: RequestInit, opts: GuardedFetchOptions): Promise<Response> {
  const refused = await egressVerdict(url, opts);
  // A DNS failure is worth retrying (EGRESS_DNS); a refused target never is (EGRESS_REFUSED).
  if (refused) throw Object.assign(new Error(`refused: ${refused.reason}`), { code: refused.isTemporary ? "EGRESS_DNS" : "EGRESS_REFUSED" });
  return fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(opts.timeoutMs) });
}

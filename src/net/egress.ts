// Guard against outbound calls to customer-given hosts that point inside the network (SSRF):
// loopback, private, link-local, CGNAT and metadata ranges are refused unless allowPrivate is set.
// A name is resolved once here and the caller connects to exactly the addresses checked
// (pinned-request.ts, the SMTP probe), so a DNS answer that changes in between cannot get through.
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

export interface EgressPolicy { allowPrivate: boolean; resolver: Resolver }

/** Why a host may not be called; `isTemporary` when only DNS failed (worth trying again later). */
export interface EgressRefusal { reason: string; isTemporary: boolean }

/** A refused call: code EGRESS_DNS (retry later) or EGRESS_REFUSED (never). */
export class EgressError extends Error {
  readonly code: "EGRESS_DNS" | "EGRESS_REFUSED";
  constructor(readonly refusal: EgressRefusal) {
    super(`refused: ${refusal.reason}`);
    this.code = refusal.isTemporary ? "EGRESS_DNS" : "EGRESS_REFUSED";
  }
}

const isLoopbackName = (host: string) => host === "localhost" || host.endsWith(".localhost");

/**
 * Resolves `host` once through the injected resolver and checks every address; the caller must
 * connect to one of the returned addresses. With allowPrivate nothing is refused (loopback names
 * then mean loopback), but the addresses are still the ones resolved here.
 */
export async function resolveEgress(host: string, policy: EgressPolicy): Promise<{ addresses: string[] } | EgressRefusal> {
  const bare = host.replace(/^\[|\]$/g, "");
  if (isLoopbackName(bare)) {
    return policy.allowPrivate ? { addresses: ["127.0.0.1"] } : { reason: `${bare} is a loopback name`, isTemporary: false };
  }
  const addresses = isIP(bare) ? [bare]
    : [...(await policy.resolver.a(bare).catch(() => [])), ...(await policy.resolver.aaaa(bare).catch(() => []))];
  if (addresses.length === 0) return { reason: `${bare} does not resolve`, isTemporary: true };
  const bad = policy.allowPrivate ? undefined : addresses.find(isPrivateAddress);
  if (bad) return { reason: `${bare} resolves to a private or loopback address (${bad}); set webhooks.allow_private to allow it`, isTemporary: false };
  return { addresses };
}

/** The parsed URL when it is http(s), else why not (fetch-like clients also read file: and data:). */
export function parseEgressUrl(url: string): URL | EgressRefusal {
  let parsed: URL;
  try { parsed = new URL(url); } catch { return { reason: "not a valid URL", isTemporary: false }; }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return { reason: `${parsed.protocol} URLs are not allowed`, isTemporary: false };
  return parsed;
}

/** Null when `url` may be called, else why not. Only http and https, whatever allow_private says. */
export async function egressVerdict(url: string, policy: EgressPolicy): Promise<EgressRefusal | null> {
  const parsed = parseEgressUrl(url);
  if (!(parsed instanceof URL)) return parsed;
  if (policy.allowPrivate) return null;
  const r = await resolveEgress(parsed.hostname, policy);
  return "reason" in r ? r : null;
}

/** Null when `url` may be called, else the reason it may not. */
export async function checkEgress(url: string, policy: EgressPolicy): Promise<string | null> {
  return (await egressVerdict(url, policy))?.reason ?? null;
}

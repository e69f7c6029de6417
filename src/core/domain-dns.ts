// The DNS records a domain publishes (SPF, DKIM, DMARC, bounce MX, tracking CNAME) and checking
// them through the configured resolver.
import type { DkimKey, Domain } from "./model.ts";
import type { Resolver } from "../dns.ts";
import { isIP } from "node:net";
import { dkimRecordValue, dkimState, publishedDkimKeys } from "./dkim-keys.ts";
import { trackingHostOf } from "./tracking-host-rules.ts";

export interface DnsRecord {
  type: "TXT" | "MX" | "CNAME" | "A";
  name: string;
  value: string;
  priority?: number;
  /** What the record is for: spf, dkim, dmarc, tls-rpt, dmarc-report-auth, bounce-mx, bounce-spf, tracking, inbound-mx. */
  purpose: string;
  required: boolean;
  valid?: "valid" | "invalid" | "unknown";
  found?: string[];
}

export interface DnsContext {
  /** EHLO name of this MTA: where SPF points and the bounce MX goes. */
  mtaHostname: string;
  /** Configured global bounce domain, or "" for bounces.<domain>. */
  bounceDomain: string;
  /** Host of server.public_url: target of the tracking CNAME. */
  trackingHost: string;
  /** SPF's mechanism for this MTA (spfMechanism); default `a:<mtaHostname>`. */
  spf?: string;
}

const PRIVATE = /^(10\.|127\.|169\.254\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.|::1$|f[cd]|fe[89ab])/i;

/**
 * Where SPF says this MTA sends from: `a:` the configured `[mta] hostname`, else the server's own
 * address (`ip4:`/`ip6:`, a public one before a private one), never a bare machine name such as
 * `vm` that no DNS knows; that name only when the machine has no address at all.
 */
export function spfMechanism(configuredHostname: string, addresses: string[], machineName: string): string {
  if (configuredHostname) return `a:${configuredHostname}`;
  const usable = addresses.filter((a) => isIP(a) && !/^(127\.|::1$)/.test(a));
  const pick = usable.find((a) => isIP(a) === 4 && !PRIVATE.test(a)) ?? usable.find((a) => isIP(a) === 6 && !PRIVATE.test(a))
    ?? usable.find((a) => isIP(a) === 4) ?? usable[0];
  return pick ? `${isIP(pick) === 4 ? "ip4" : "ip6"}:${pick}` : `a:${machineName}`;
}

export const bounceDomainFor = (domain: string, configured: string) => configured || `bounces.${domain}`;

/** The records `domain add` prints and `domain dns` lists. */
export function recordsFor(domain: Domain, keys: DkimKey[], ctx: DnsContext): DnsRecord[] {
  const spf = `v=spf1 ${ctx.spf ?? `a:${ctx.mtaHostname}`} ~all`;
  const bounce = bounceDomainFor(domain.name, ctx.bounceDomain);
  const records: DnsRecord[] = [{ type: "TXT", name: domain.name, value: spf, purpose: "spf", required: false }];
  for (const k of publishedDkimKeys(keys)) {
    records.push({ type: "TXT", name: `${k.selector}._domainkey.${domain.name}`, value: dkimRecordValue(k), purpose: "dkim",
      // Only the signing RSA key gates verification: a pending key's record may still be on its way.
      required: k.algorithm === "rsa-sha256" && dkimState(k) === "active" });
  }
  records.push(
    // Receivers' reports come to the bounce domain, whose MX already points at postern (contract §12).
    { type: "TXT", name: `_dmarc.${domain.name}`, value: `v=DMARC1; p=none; rua=mailto:dmarc@${bounce}`, purpose: "dmarc", required: false },
    { type: "TXT", name: `_smtp._tls.${domain.name}`, value: `v=TLSRPTv1; rua=mailto:tlsrpt@${bounce}`, purpose: "tls-rpt", required: false },
    { type: "MX", name: bounce, value: ctx.mtaHostname, priority: 10, purpose: "bounce-mx", required: false },
    { type: "TXT", name: bounce, value: spf, purpose: "bounce-spf", required: false },
    // A CNAME must name a host; when public_url is an IP address, publish it as an A record.
    { type: isIP(ctx.trackingHost) ? "A" : "CNAME", name: trackingHostOf(domain), value: ctx.trackingHost, purpose: "tracking", required: false },
  );
  // A rua= outside the domain's own tree needs the report domain's consent (RFC 7489 §7.1).
  if (bounce !== domain.name && !bounce.endsWith(`.${domain.name}`)) {
    records.push({ type: "TXT", name: `${domain.name}._report._dmarc.${bounce}`, value: "v=DMARC1", purpose: "dmarc-report-auth", required: false });
  }
  // A receiving domain's own MX points at this MTA, whose [smtp] listen port (25) takes its mail.
  if (domain.inbound) records.push({ type: "MX", name: domain.name, value: ctx.mtaHostname, priority: 10, purpose: "inbound-mx", required: false });
  return records;
}

async function lookup(resolver: Resolver, r: DnsRecord): Promise<string[] | null> {
  try {
    if (r.type === "TXT") return (await resolver.txt(r.name)).map((parts) => parts.join(""));
    if (r.type === "MX") return (await resolver.mx(r.name)).map((m) => m.exchange);
    if (r.type === "A") return await resolver.a(r.name);
    return await resolver.cname(r.name);
  } catch (e) {
    const code = (e as { code?: string }).code ?? "";
    return ["ENOTFOUND", "ENODATA", "NXDOMAIN"].includes(code) ? [] : null;
  }
}

const norm = (s: string) => s.replace(/\s+/g, "").replace(/\.$/, "").toLowerCase();

function matches(r: DnsRecord, found: string[]): boolean {
  if (r.purpose === "dkim") {
    const p = /p=([^;]+)/.exec(r.value)?.[1];
    return found.some((f) => norm(f).includes(`p=${norm(p ?? "")}`));
  }
  if (r.purpose === "spf" || r.purpose === "bounce-spf") return found.some((f) => norm(f).startsWith("v=spf1"));
  if (r.purpose === "dmarc" || r.purpose === "dmarc-report-auth") return found.some((f) => norm(f).startsWith("v=dmarc1"));
  if (r.purpose === "tls-rpt") return found.some((f) => norm(f).startsWith("v=tlsrptv1"));
  return found.some((f) => norm(f) === norm(r.value));
}

/** Looks every record up and marks it valid, invalid (missing or different) or unknown (DNS failed). */
export async function checkRecords(records: DnsRecord[], resolver: Resolver): Promise<DnsRecord[]> {
  return Promise.all(records.map(async (r) => {
    const found = await lookup(resolver, r);
    if (found === null) return { ...r, valid: "unknown" as const, found: [] };
    return { ...r, valid: matches(r, found) ? ("valid" as const) : ("invalid" as const), found };
  }));
}

// Pure rules of tracking hosts (docs/tracking-hosts.md): a domain's host, what a check's findings
// mean, and the base of the links of its new mail. The service (tracking-hosts.ts) looks things up
// and stores; everything decided is here, so it is tested with tables.
import type { Domain, DomainTracking } from "./model.ts";

export type TrackingState = DomainTracking["state"];

export const DEFAULT_TRACKING_PREFIX = "email";
export const defaultTrackingHost = (domain: string) => `${DEFAULT_TRACKING_PREFIX}.${domain}`;

/** The tracking host of a domain: its own, else `email.<domain>` (as `domain dns` prints it). */
export const trackingHostOf = (d: Pick<Domain, "name" | "tracking">): string => d.tracking?.host || defaultTrackingHost(d.name);

export const trackingStateOf = (d: Pick<Domain, "tracking">): TrackingState => d.tracking?.state ?? "pending";

/**
 * Where links can go on a tracking host, from how postern listens: `resolving` is the scheme and
 * port of links before a certificate (null: no plain listener answers a tracking host), `secure`
 * the port of https links (null: postern serves no HTTPS itself). Ports are "" or ":8443".
 */
export interface LinkOrigins {
  publicUrl: string;
  resolving: { scheme: "http" | "https"; port: string } | null;
  secure: { port: string } | null;
}

const portSuffix = (port: string, scheme: string) => (!port || (scheme === "http" && port === "80") || (scheme === "https" && port === "443") ? "" : `:${port}`);
const portOf = (hostPort: string) => hostPort.slice(hostPort.lastIndexOf(":") + 1);

/**
 * Without [tls] postern listens as public_url says (directly, or behind a proxy that must then
 * answer for the tracking hosts too): links keep public_url's scheme and port. With [tls] the
 * listener is HTTPS (public_url's port, else `listen`'s); plain http reaches a tracking host only
 * on `http_listen`, which sends it on to public_url over https, path and query kept.
 */
export function linkOrigins(o: { publicUrl: string; tlsOn: boolean; listen: string; httpListen: string }): LinkOrigins {
  const u = new URL(o.publicUrl);
  const scheme = u.protocol === "https:" ? "https" : "http";
  if (!o.tlsOn) return { publicUrl: o.publicUrl, resolving: { scheme, port: portSuffix(u.port, scheme) }, secure: null };
  const securePort = scheme === "https" ? portSuffix(u.port, "https") : portSuffix(portOf(o.listen), "https");
  return { publicUrl: o.publicUrl, secure: { port: securePort },
    resolving: o.httpListen ? { scheme: "http", port: portSuffix(portOf(o.httpListen), "http") } : null };
}

/** The base of the links and pixels of a domain's new mail: its own host once it resolves here, https once its certificate is valid. */
export function linkBaseOf(d: Pick<Domain, "name" | "tracking">, o: LinkOrigins): string {
  const state = trackingStateOf(d);
  const host = trackingHostOf(d);
  if (state === "https" && o.secure) return `https://${host}${o.secure.port}`;
  if (state !== "pending" && o.resolving) return `${o.resolving.scheme}://${host}${o.resolving.port}`;
  return o.publicUrl.replace(/\/+$/, "");
}

export interface TrackingFindings {
  /** The host's A/AAAA answers; null when the lookup failed (timeout, SERVFAIL). */
  found: string[] | null;
  /** Why the lookup failed, when it did. */
  cause?: string;
  /** This server's addresses (server-addresses.ts). */
  ours: string[];
  /** A certificate valid now for the host is served by SNI. */
  certificateValid: boolean;
  previous: TrackingState;
}

/**
 * A check's verdict. A failed lookup keeps the state it had (a passing DNS fault must not send
 * links back to public_url); an answer without one of our addresses is pending.
 */
export function judgeTrackingHost(f: TrackingFindings): { state: TrackingState; note: string } {
  if (f.found === null) return { state: f.previous, note: `DNS lookup failed (${f.cause ?? "no answer"}); state kept` };
  const ours = new Set(f.ours);
  if (!f.found.some((a) => ours.has(a))) {
    return { state: "pending", note: f.found.length ? `resolves to ${f.found.join(", ")}, not this server (${f.ours.join(", ") || "no address known"})` : "no A/AAAA record" };
  }
  return f.certificateValid ? { state: "https", note: "resolves to this server; certificate valid" } : { state: "resolving", note: "resolves to this server" };
}

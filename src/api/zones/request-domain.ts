// Which domain an API request is about, one function per surface, so the zone router can send it
// to the nodes of that domain's zone. Only what the request itself names counts: the path, the
// key's own domain, and (SparkPost transmissions with an account key) the sender in the body.
// A request about no single domain (listings, account, keys, validation) is answered here, from
// the shared control data and the zones served here.
import type { Principal } from "../../core/model.ts";

const looksLikeDomain = (s: string | undefined): s is string => !!s && s.includes(".") && !s.includes("@");
const decode = (s: string) => { try { return decodeURIComponent(s); } catch { return s; } };

/** Mailgun: `/v3/<domain>/…` (messages, events, stats, tags, templates, suppressions) and `/v{1-5}/domains/<domain>/…`. */
export function mailgunDomain(path: string): string | null {
  const seg = path.split("/").map(decode);
  if (seg[2] === "domains" && looksLikeDomain(seg[3])) return seg[3];
  if (seg[1] === "v3" && looksLikeDomain(seg[2])) return seg[2];
  return null;
}

/** The domain a domain key (or a console session signed in with one) is bound to. */
export const keyDomain = (principal: Principal | null): string | null => principal?.domain?.name ?? null;

/** SendGrid: the key's domain (its API takes domain keys only; mail/send's from must be of it). */
export const sendgridDomain = keyDomain;

/**
 * SparkPost: `/api/v1/<domain>/…`, `sending-domains/<domain>`, else a domain key's domain. For an
 * account key, POST /transmissions is about the domain of `content.from` (see sparkpostBodyDomain).
 */
export function sparkpostDomain(path: string, principal: Principal | null): string | null {
  const seg = path.split("/").map(decode);
  if (seg[3] === "sending-domains" && looksLikeDomain(seg[4])) return seg[4];
  if (looksLikeDomain(seg[3])) return seg[3];
  return principal?.kind === "domain" ? principal.domain?.name ?? null : null;
}

/** True when the request's domain is only in its body: an account key's POST /api/v1/transmissions. */
export const sparkpostNeedsBody = (method: string, path: string) => method === "POST" && path === "/api/v1/transmissions";

/** The sending domain of a transmission body: `content.from` as `"a@d"`, `"Name <a@d>"` or `{email}`. */
export function sparkpostBodyDomain(body: unknown): string | null {
  const from = (body as { content?: { from?: unknown } } | null)?.content?.from;
  const email = typeof from === "string" ? from : typeof (from as { email?: unknown })?.email === "string" ? (from as { email: string }).email : "";
  const m = /@([^\s<>@]+?)>?\s*$/.exec(email);
  return m && looksLikeDomain(m[1]) ? m[1].toLowerCase() : null;
}

/** Native: `/domains/<domain>/…` and `/<domain>/messages|suppress|validate|bot…`. */
export function nativeDomain(path: string): string | null {
  const seg = path.split("/").map(decode);
  if (seg[1] === "domains" && looksLikeDomain(seg[2])) return seg[2];
  return looksLikeDomain(seg[1]) ? seg[1] : null;
}

/** Console API: `/ui/api/domains/<domain>/…`, `/ui/api/messages/<domain>/<id>` and `/ui/api/stats?domain=<domain>`. */
export function consoleDomain(path: string, query?: URLSearchParams): string | null {
  const seg = path.split("/").map(decode);
  if (seg[1] !== "ui" || seg[2] !== "api") return null;
  if (seg[3] === "stats" && seg.length === 4) return looksLikeDomain(query?.get("domain") ?? undefined) ? query!.get("domain")!.toLowerCase() : null;
  return (seg[3] === "domains" || seg[3] === "messages") && looksLikeDomain(seg[4]) ? seg[4] : null;
}

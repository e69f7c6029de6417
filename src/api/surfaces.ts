// The contract's prefix table (contract §4): which surface owns a path. One pure function, used
// for routing, authentication and the error shape of unknown paths; api/routes.test.ts locks it.

export type Surface = "sendgrid" | "mailgun" | "sparkpost" | "native" | "system" | "tracking";

const SENDGRID_PATHS = new Set(["/v3/mail/send", "/v3/validations/email", "/v3/stats"]);
// First segments under /v3 that only SendGrid uses: Mailgun's own /v3 paths start with a domain
// (which has a dot) or with domains, routes, lists, address, ips, stats/total...
const SENDGRID_ROOTS = new Set(["mail", "validations", "user", "suppression", "suppressions", "asm", "categories", "templates", "marketing",
  "scopes", "api_keys", "whitelabel", "senders", "verified_senders", "tracking_settings", "mail_settings", "partner_settings", "subusers",
  "teammates", "designs", "messages", "geo", "devices", "clients", "mailbox_providers", "browsers", "alerts", "access_settings"]);
const SYSTEM_PATHS = new Set(["/healthz", "/metrics", "/docs", "/ui"]);

/** Collapses duplicate slashes and drops a trailing slash (the SparkPost client sends `//api/v1`). */
export function normalizePath(path: string): string {
  const collapsed = path.replace(/\/{2,}/g, "/");
  return collapsed.length > 1 && collapsed.endsWith("/") ? collapsed.slice(0, -1) : collapsed;
}

/**
 * `headers` settle /v3 paths no table names: SendGrid clients send `Authorization: Bearer`, which
 * Mailgun never takes, so an unknown SendGrid path gets SendGrid's 404, not Mailgun's 401. Paths
 * both vendors have (`/v3/ips`) go the same way: Bearer to SendGrid, Basic to Mailgun (docs/egress.md).
 */
export function surfaceForPath(rawPath: string, headers?: Headers): Surface {
  const path = normalizePath(rawPath);
  if (SENDGRID_PATHS.has(path) || (path.startsWith("/v3/") && SENDGRID_ROOTS.has(path.split("/")[2]!))) return "sendgrid";
  if (path.startsWith("/v3/") && /^Bearer\s/i.test(headers?.get("authorization") ?? "")) return "sendgrid";
  if (path.startsWith("/api/v1/") || path === "/api/v1") return "sparkpost";
  if (/^\/v[1-5](\/|$)/.test(path)) return "mailgun";
  if (SYSTEM_PATHS.has(path) || path.startsWith("/ui/") || path.startsWith("/docs/")) return "system";
  if (path.startsWith("/t/") || /^\/[^/]+\/[^/]+\/hclick$/.test(path)) return "tracking";
  return "native";
}

// The contract's prefix table (contract §4): which surface owns a path. One pure function, used
// for routing, authentication and the error shape of unknown paths; api/routes.test.ts locks it.

export type Surface = "sendgrid" | "mailgun" | "sparkpost" | "native" | "system" | "tracking";

const SENDGRID_PATHS = new Set(["/v3/mail/send", "/v3/validations/email"]);
const SYSTEM_PATHS = new Set(["/healthz", "/metrics", "/docs", "/ui"]);

/** Collapses duplicate slashes and drops a trailing slash (the SparkPost client sends `//api/v1`). */
export function normalizePath(path: string): string {
  const collapsed = path.replace(/\/{2,}/g, "/");
  return collapsed.length > 1 && collapsed.endsWith("/") ? collapsed.slice(0, -1) : collapsed;
}

export function surfaceForPath(rawPath: string): Surface {
  const path = normalizePath(rawPath);
  if (SENDGRID_PATHS.has(path)) return "sendgrid";
  if (path.startsWith("/api/v1/") || path === "/api/v1") return "sparkpost";
  if (/^\/v[1-5](\/|$)/.test(path)) return "mailgun";
  if (SYSTEM_PATHS.has(path) || path.startsWith("/ui/") || path.startsWith("/docs/")) return "system";
  if (path.startsWith("/t/") || /^\/[^/]+\/[^/]+\/hclick$/.test(path)) return "tracking";
  return "native";
}

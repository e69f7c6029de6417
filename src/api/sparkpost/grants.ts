// SparkPost API-key grants (the names SparkPost's own app lists) and their enforcement on every
// route of this surface. A key with no grants holds every grant of its kind; a `…/modify` or
// `…/manage` grant includes the matching read access, as SparkPost's "Read/Write" does.
import type { Principal } from "../../core/model.ts";
import { principalOf } from "../context.ts";
import { spError } from "./errors.ts";

export const KNOWN_GRANTS = new Set([
  "metrics/view", "message_events/view", "webhooks/view", "webhooks/modify", "templates/view", "templates/modify",
  "templates/preview", "transmissions/view", "transmissions/modify", "recipient_lists/manage", "tracking_domains/view",
  "tracking_domains/manage", "sending_domains/manage", "inbound_domains/manage", "suppression_lists/manage",
  "relay_webhooks/view", "relay_webhooks/modify", "users/self-manage", "users/manage", "users/token-manage", "grants/view",
  "api_keys/manage", "account/manage", "subaccount/manage", "subaccount/view", "ip_pools/manage", "ip_pools/view",
  "messaging-tools/manage", "ab-testing/manage", "alerts/manage", "recipient-validation/preview",
  "recipient-validation/manage", "signals/manage", "support/manage", "events/ingest", "smtp/inject", "data_privacy/manage",
]);

/** The grants each route group needs: `read` for GET, `write` for everything else. */
export const ROUTE_GRANTS = {
  transmissions: { read: ["transmissions/view", "transmissions/modify"], write: ["transmissions/modify"] },
  sendingDomains: { read: ["sending_domains/manage"], write: ["sending_domains/manage"] },
  apiKeys: { read: ["api_keys/manage"], write: ["api_keys/manage"] },
  webhooks: { read: ["webhooks/view", "webhooks/modify"], write: ["webhooks/modify"] },
  suppressions: { read: ["suppression_lists/manage"], write: ["suppression_lists/manage"] },
  validation: { read: ["recipient-validation/preview", "recipient-validation/manage"], write: ["recipient-validation/manage"] },
  account: { read: ["account/manage"], write: ["account/manage"] },
} as const;

export type RouteGroup = keyof typeof ROUTE_GRANTS;

/** The caller's principal, after checking it holds a grant for `group` (403 otherwise). */
export function authorize(request: Request, group: RouteGroup, access: "read" | "write" = request.method === "GET" ? "read" : "write"): Principal {
  const principal = principalOf(request);
  const accepted: readonly string[] = ROUTE_GRANTS[group][access];
  if (principal.grants.length && !accepted.some((g) => principal.grants.includes(g))) {
    throw spError(403, "1002", "Forbidden.", `this API key lacks the grant ${accepted.at(-1)}`);
  }
  return principal;
}

/** True when `principal` may hand out every grant in `wanted` (no key can create a stronger key). */
export function mayDelegate(principal: Principal, wanted: string[]): boolean {
  if (!principal.grants.length) return true;
  return wanted.length > 0 && wanted.every((g) => principal.grants.includes(g));
}

// Who may do what on the SparkPost surface. API-key grants (the names SparkPost's own app lists)
// and the declarations of this surface's routes for the permission guard (api/permission.ts);
// which domains a request acts on. Grants map onto postern's rights in grants.ts (every
// vocabulary together: ../grants.ts). A key with no grants holds every right of its kind.
import type { Domain, KeyKind } from "../../core/model.ts";
import type { DomainService } from "../../core/domains.ts";
import { principalOf, requireDomainScope } from "../context.ts";
import { notFoundError } from "./errors.ts";
import { isKnownGrant, readTenant, seesTenant, type Permission, type Right } from "../../core/permissions.ts";
import { grantRights } from "../grants.ts";

export const KNOWN_GRANTS = new Set([
  "metrics/view", "message_events/view", "webhooks/view", "webhooks/modify", "templates/view", "templates/modify",
  "templates/preview", "transmissions/view", "transmissions/modify", "recipient_lists/manage", "tracking_domains/view",
  "tracking_domains/manage", "sending_domains/manage", "inbound_domains/manage", "suppression_lists/manage",
  "relay_webhooks/view", "relay_webhooks/modify", "users/self-manage", "users/manage", "users/token-manage", "grants/view",
  "api_keys/manage", "account/manage", "subaccount/manage", "subaccount/view", "ip_pools/manage", "ip_pools/view",
  "messaging-tools/manage", "ab-testing/manage", "alerts/manage", "recipient-validation/preview",
  "recipient-validation/manage", "signals/manage", "support/manage", "events/ingest", "smtp/inject", "data_privacy/manage",
]);

/** A grant this surface accepts on a key: SparkPost's own names, or any vocabulary postern maps. */
export const acceptsGrant = (g: string) => KNOWN_GRANTS.has(g) || isKnownGrant(g, grantRights);

/** A route's declaration: `right`, scoped to the `/{domain}/…` path prefix when the route has one. */
export function need(right: Right, opts: { prefix?: string; keys?: KeyKind } = {}): Permission {
  return { right, ...(opts.prefix ? { domain: "domain" } : {}), ...(opts.keys ? { keys: opts.keys } : {}) };
}

// Which domains a request acts on: the `/{domain}/…` path prefix of the spec when given, else the
// key's own domain for a domain key, else every domain of the account (SparkPost lists are account-wide).

/** The domain named in the path, after checking the key may act on it. */
export async function pathDomain(request: Request, domains: DomainService, name: string): Promise<Domain> {
  const domain = await domains.get(name.toLowerCase());
  // Another tenant's domain is as unknown as a missing one (X-MSYS-SUBACCOUNT, docs/tenants.md),
  // before the key's own scope (another domain of its tenant: 403) is asked.
  const missing = () => notFoundError(`Domain '${name}' does not exist`);
  if (domain && !seesTenant(principalOf(request), domain.tenantId)) throw missing();
  requireDomainScope(request, name);
  if (!domain) throw missing();
  return domain;
}

/**
 * The domains in scope: the path's, the domain key's, or for an account key every domain whose
 * zone is served here (the data read is zone data; requests for one domain of another zone were
 * proxied there). `everyZone` lists every zone's domains (sending-domains: control data).
 */
export async function scopedDomains(request: Request, domains: DomainService, name?: string, opts: { everyZone?: boolean } = {}): Promise<Domain[]> {
  if (name) return [await pathDomain(request, domains, name)];
  const principal = principalOf(request);
  if (principal.kind === "domain") return principal.domain ? [principal.domain] : [];
  const tenant = readTenant(principal);
  return opts.everyZone ? domains.list(tenant) : domains.listServed(tenant);
}

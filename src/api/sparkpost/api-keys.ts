// /api/v1/api-keys and the spec's /api/v1/{domain}/api-keys: keys with SparkPost grants over
// core/access. The {domain} form makes a domain (sending) key; without it an account key makes an
// account key and a domain key a key for its own domain. No key can create, or change a key into,
// one stronger than itself.
import { Elysia } from "elysia";
import type { KeyInfo } from "../../core/access.ts";
import type { Principal } from "../../core/model.ts";
import { mayManageKey, readTenant, seesTenant } from "../../core/permissions.ts";
import type { SurfaceDeps } from "../deps.ts";
import { json } from "../errors.ts";
import { badFormat, notFoundError, spError } from "./errors.ts";
import { acceptsGrant, need, pathDomain } from "./policy.ts";
import { permissions } from "../permission.ts";
import { principalOf } from "../context.ts";
import { isObject } from "../wire.ts";
import { grantRights } from "../grants.ts";

type Deps = Pick<SurfaceDeps, "access" | "domains">;

const MAX_LABEL_BYTES = 1024;

function toWire(k: KeyInfo) {
  return { id: k.id, label: k.label, short_key: k.id.slice(0, 4), grants: k.grants, created_at: new Date(k.createdAt).toISOString(),
    ...(k.lastUsedAt ? { last_used: new Date(k.lastUsedAt).toISOString() } : {}), kind: k.kind, ...(k.domain ? { domain: k.domain } : {}) };
}

/** The label and grants a body gives (each undefined when absent: PUT leaves it as it is). */
function readKeyBody(body: unknown): { label?: string; grants?: string[] } {
  if (!isObject(body)) throw badFormat("the request body must be a JSON object");
  const { label, grants } = body;
  if (label !== undefined && (typeof label !== "string" || Buffer.byteLength(label) > MAX_LABEL_BYTES)) throw badFormat("label must be a string of at most 1024 bytes");
  if (grants !== undefined && (!Array.isArray(grants) || !grants.every((g) => typeof g === "string"))) throw badFormat("grants must be an array of strings");
  const unknown = (grants as string[] | undefined)?.find((g) => !acceptsGrant(g));
  if (unknown) throw badFormat(`unknown grant ${unknown}`);
  // An IP allow-list that is silently not enforced would be worse than a refusal.
  if (Array.isArray(body.valid_ips) && body.valid_ips.length) throw badFormat("valid_ips is not supported by postern; restrict access to the API at the network level");
  return { label: label as string | undefined, grants: grants === undefined ? undefined : [...new Set(grants as string[])] };
}

const tooStrong = () => spError(403, "1002", "Forbidden.", "a key cannot grant more than it holds");

/** The domain the keys of this request belong to: the path's, a domain key's own, or none (account). */
async function keyDomain(request: Request, deps: Deps, principal: Principal, name?: string): Promise<string | null> {
  if (name) return (await pathDomain(request, deps.domains, name)).name;
  return principal.kind === "domain" ? principal.domain?.name ?? null : null;
}

/** A key this request may see: within the path's domain, and a domain key sees only its domain's keys. */
async function visibleKey(deps: Deps, id: string, domain: string | null, principal: Principal): Promise<KeyInfo> {
  const key = await deps.access.getKey(id);
  const isVisible = key && seesTenant(principal, key.tenant) && (domain === null ? principal.kind === "account" : key.domain === domain);
  if (!key || !isVisible) throw notFoundError(`API key '${id}' does not exist`);
  return key;
}

export function apiKeyRoutes(deps: Deps, prefix: "" | "/:domain") {
  const domainOf = (params: Record<string, string> | undefined) => params?.domain;
  return (app: Elysia) => app.use(permissions)
    .get(`${prefix}/api-keys`, async ({ request, params }) => {
      const principal = principalOf(request);
      const domain = await keyDomain(request, deps, principal, domainOf(params));
      return json(200, { results: (await deps.access.listKeys(domain ?? undefined, readTenant(principal))).map(toWire) });
    }, { permission: need("keys.read", { prefix }) })
    .post(`${prefix}/api-keys`, async ({ request, params, body }) => {
      const principal = principalOf(request);
      const domain = await keyDomain(request, deps, principal, domainOf(params));
      const { label = "", grants = [] } = readKeyBody(body);
      if (!mayManageKey(principal, { kind: domain ? "domain" : "account", domain, grants }, grantRights)) throw tooStrong();
      // Made on behalf of a tenant (X-MSYS-SUBACCOUNT): that tenant's own key (contract §14).
      const tenant = principal.tenant;
      const k = await deps.access.createKey(domain ? { kind: "domain", domain, label, grants, tenant } : { kind: "account", label, grants, tenant });
      return json(200, { results: { ...toWire(k), key: k.key, link: { href: `/api/v1/api-keys/${k.id}` } } });
    }, { permission: need("keys.manage", { prefix }) })
    .get(`${prefix}/api-keys/:id`, async ({ request, params }) => {
      const principal = principalOf(request);
      const domain = await keyDomain(request, deps, principal, domainOf(params));
      return json(200, { results: toWire(await visibleKey(deps, params.id, domain, principal)) });
    }, { permission: need("keys.read", { prefix }) })
    .put(`${prefix}/api-keys/:id`, async ({ request, params, body }) => {
      const principal = principalOf(request);
      const domain = await keyDomain(request, deps, principal, domainOf(params));
      const key = await visibleKey(deps, params.id, domain, principal);
      const patch = readKeyBody(body);
      // Neither the new grants nor the key being changed may be stronger than the caller's own key.
      if (!mayManageKey(principal, key, grantRights) || (patch.grants && !mayManageKey(principal, { ...key, grants: patch.grants }, grantRights))) throw tooStrong();
      const k = await deps.access.updateKey(key.id, patch);
      return json(200, { results: { ...toWire(k), link: { href: `/api/v1/api-keys/${k.id}` } } });
    }, { permission: need("keys.manage", { prefix }) })
    .delete(`${prefix}/api-keys/:id`, async ({ request, params }) => {
      const principal = principalOf(request);
      const domain = await keyDomain(request, deps, principal, domainOf(params));
      const key = await visibleKey(deps, params.id, domain, principal);
      if (!mayManageKey(principal, key, grantRights)) throw tooStrong();
      await deps.access.revokeKey(key.id);
      return new Response(null, { status: 204 });
    }, { permission: need("keys.manage", { prefix }) });
}

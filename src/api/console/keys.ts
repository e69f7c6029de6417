// Console: API keys (create with kind, domain, label and grants; the secret is in the create answer
// only; list; revoke) and SMTP credentials per domain. The same access service as the APIs and the
// CLI, and the permission model's delegation rule (core/permissions.ts mayManageKey): no key
// creates or revokes a key stronger than itself, a domain key only its own domain's.
import { Elysia } from "elysia";
import type { KeyKind } from "../../core/model.ts";
import { forbidden, invalid } from "../../core/errors.ts";
import { isKnownGrant, mayManageKey, readTenant } from "../../core/permissions.ts";
import { principalOf } from "../context.ts";
import { permissions } from "../permission.ts";
import type { ConsoleDeps } from "./deps.ts";
import { CONSOLE_GRANTS, domainFor, field, requiredField } from "./policy.ts";
import { grantRights } from "../grants.ts";
import { revokeVisibleKey } from "../key-revoke.ts";

function grantsOf(body: unknown): string[] {
  const g = (body as { grants?: unknown } | null)?.grants ?? [];
  if (!Array.isArray(g) || g.some((x) => typeof x !== "string")) throw invalid("grants must be a list of grant names", "grants");
  const unknown = g.find((x) => !isKnownGrant(x, grantRights));
  if (unknown) throw invalid(`unknown grant "${unknown}"`, "grants");
  return g as string[];
}

function kindOf(body: unknown): KeyKind {
  const kind = field(body, "kind") || "domain";
  if (kind !== "account" && kind !== "domain") throw invalid("kind must be account or domain", "kind");
  return kind;
}

export function keyRoutes(deps: ConsoleDeps) {
  return new Elysia({ prefix: "/ui/api" }).use(permissions)
    .get("/grants", () => CONSOLE_GRANTS, { permission: { right: "keys.read" } })
    .get("/keys", async ({ request }) => {
      const p = principalOf(request);
      return deps.access.listKeys(p.kind === "domain" ? p.domain!.name : undefined, readTenant(p));
    }, { permission: { right: "keys.read" } })
    .post("/keys", async ({ request, body }) => {
      const kind = kindOf(body);
      const domain = kind === "domain" ? (await domainFor(request, deps.domains, requiredField(body, "domain"))).domain.name : undefined;
      const grants = grantsOf(body);
      if (!mayManageKey(principalOf(request), { kind, domain: domain ?? null, grants }, grantRights)) throw forbidden("a key cannot create a key with more rights than its own");
      return deps.access.createKey({ kind, domain, label: field(body, "label"), grants, tenant: principalOf(request).tenant });
    }, { permission: { right: "keys.manage" } })
    .delete("/keys/:id", async ({ request, params }) => {
      const key = await revokeVisibleKey(deps.access, principalOf(request), params.id);
      return { message: "revoked", id: key.id };
    }, { permission: { right: "keys.manage" } })
    .get("/domains/:domain/credentials", async ({ request, params }) => {
      const { domain } = await domainFor(request, deps.domains, params.domain);
      return deps.access.listCredentials(domain.name);
    }, { permission: { right: "credentials.read", domain: "domain" } })
    .post("/domains/:domain/credentials", async ({ request, params, body }) => {
      const { domain } = await domainFor(request, deps.domains, params.domain);
      return deps.access.setCredential(domain.name, requiredField(body, "login"), field(body, "password") || undefined);
    }, { permission: { right: "credentials.manage", domain: "domain" } })
    .delete("/domains/:domain/credentials/:login", async ({ request, params }) => {
      const { domain } = await domainFor(request, deps.domains, params.domain);
      await deps.access.deleteCredential(domain.name, decodeURIComponent(params.login));
      return { message: "deleted" };
    }, { permission: { right: "credentials.manage", domain: "domain" } });
}

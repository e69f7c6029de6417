// GET /keys, POST /keys ({"kind":"account"|"domain","domain","label","grants":[rights]}) and
// DELETE /keys/{id}: API keys of the acting tenant. A key made with `X-Postern-Tenant` (a primary
// account key acting for that tenant: api/auth.ts tenantAsk, core/permissions.ts actFor) is that
// tenant's own key; never one with more rights than the caller's (mayManageKey).
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import { principalOf } from "../context.ts";
import { permissions } from "../permission.ts";
import { grantRights } from "../grants.ts";
import { revokeVisibleKey } from "../key-revoke.ts";
import { forbidden, invalid } from "../../core/errors.ts";
import { RIGHTS } from "../../core/grants.ts";
import { mayManageKey, readTenant } from "../../core/permissions.ts";
import type { KeyInfo } from "../../core/access.ts";
import { readForm, textOf, textsOf } from "./model.ts";
import { visibleDomain } from "./policy.ts";

type Deps = Pick<SurfaceDeps, "access" | "domains">;

const view = (k: KeyInfo) => ({ id: k.id, kind: k.kind, domain: k.domain, label: k.label, grants: k.grants, tenant: k.tenant ?? 0,
  created_at: new Date(k.createdAt).toISOString() });

export function keysRoutes(deps: Deps) {
  return new Elysia({ name: "native-keys" }).use(permissions)
    .get("/keys", async ({ request }) => {
      const p = principalOf(request);
      return { items: (await deps.access.listKeys(p.kind === "domain" ? p.domain!.name : undefined, readTenant(p))).map(view) };
    }, { permission: { right: "keys.read" } })
    .post("/keys", async ({ request }) => {
      const fields = await readForm(request);
      const kind = textOf(fields, "kind") ?? "account";
      if (kind !== "account" && kind !== "domain") throw invalid("kind must be account or domain", "kind");
      const domain = kind === "domain" ? (await visibleDomain(request, deps.domains, textOf(fields, "domain") ?? "")).domain.name : undefined;
      const grants = textsOf(fields, "grants");
      const unknown = grants.find((g) => !(RIGHTS as readonly string[]).includes(g));
      if (unknown) throw invalid(`unknown right "${unknown}"`, "grants");
      const p = principalOf(request);
      if (!mayManageKey(p, { kind, domain: domain ?? null, grants }, grantRights)) throw forbidden("a key cannot create a key with more rights than its own");
      const made = await deps.access.createKey({ kind, domain, label: textOf(fields, "label") ?? "", grants, tenant: p.tenant });
      return { ...view(made), key: made.key };
    }, { parse: "none", permission: { right: "keys.manage" } })
    .delete("/keys/:id", async ({ request, params }) => {
      const key = await revokeVisibleKey(deps.access, principalOf(request), params.id);
      return { message: "Key revoked", id: key.id };
    }, { permission: { right: "keys.manage" } });
}

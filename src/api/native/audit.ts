// GET /audit: the audit log (contract §14), newest first, for account keys and console users who
// may read the account. `from`/`to` are ISO 8601 or Unix seconds, `actor` a kind or an id.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import { permissions } from "../permission.ts";
import { principalOf } from "../context.ts";
import { auditTenant } from "../../core/permissions.ts";

export function auditRoutes(deps: Pick<SurfaceDeps, "audit">) {
  return new Elysia({ name: "native-audit" }).use(permissions)
    .get("/audit", ({ request }) => {
      const q = new URL(request.url).searchParams;
      const get = (name: string) => q.get(name) ?? undefined;
      return deps.audit.list({ from: get("from"), to: get("to"), actor: get("actor"), action: get("action"), limit: get("limit"), cursor: get("cursor") },
        auditTenant(principalOf(request)));
    }, { permission: { right: "account.read", keys: "account" } });
}

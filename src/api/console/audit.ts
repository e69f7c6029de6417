// Console: the audit log page's reads (the same filters and page shape as the native GET /audit).
import { Elysia } from "elysia";
import { permissions } from "../permission.ts";
import { principalOf } from "../context.ts";
import { auditTenant } from "../../core/permissions.ts";
import type { ConsoleDeps } from "./deps.ts";

export function auditRoutes(deps: Pick<ConsoleDeps, "audit">) {
  return new Elysia({ prefix: "/ui/api" }).use(permissions)
    .get("/audit", ({ request }) => {
      const q = new URL(request.url).searchParams;
      const get = (name: string) => q.get(name) ?? undefined;
      return deps.audit.list({ from: get("from"), to: get("to"), actor: get("actor"), action: get("action"), limit: get("limit"), cursor: get("cursor") },
        auditTenant(principalOf(request)));
    }, { permission: { right: "account.read", keys: "account" } });
}

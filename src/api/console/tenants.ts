// Console: the Tenants page (list, add, suspend, reactivate: owners and admins of every tenant, and
// the primary's account keys, as the vendors' subaccount APIs allow) and the tenant switcher of a
// user of every tenant (the session then acts for one tenant). Who may is decided once, in
// core/permissions.ts (the route's `primary` permission; actForUser for the switcher's choice).
import { Elysia } from "elysia";
import type { Tenant } from "../../core/tenants.ts";
import { principalOf } from "../context.ts";
import { permissions } from "../permission.ts";
import { PRIMARY_MANAGE as MANAGE, PRIMARY_READ as READ } from "../../core/permissions.ts";
import type { ConsoleDeps } from "./deps.ts";
import { requiredField } from "./policy.ts";
import { sessionToken } from "./session.ts";

const view = (t: Tenant) => ({ id: t.id, name: t.name, status: t.status });

export function tenantRoutes(deps: Pick<ConsoleDeps, "tenants" | "sessions">) {
  return new Elysia({ prefix: "/ui/api" }).use(permissions)
    .get("/tenants", async () => ({ tenants: (await deps.tenants.list()).map(view) }), { permission: READ })
    .post("/tenants", async ({ body }) => view(await deps.tenants.add(requiredField(body, "name"))), { permission: MANAGE })
    .put("/tenants/:id", async ({ params, body }) => view(await deps.tenants.setStatus(params.id, requiredField(body, "status"))), { permission: MANAGE })
    // The switcher's choices: every tenant for a user of every tenant, none for anyone else.
    .get("/session/tenants", async ({ request }) => {
      const p = principalOf(request);
      return { tenants: p.userId && p.membership === null ? (await deps.tenants.list()).map(view) : [] };
    }, { permission: { right: "any" } })
    .put("/session/tenant", async ({ request, body }) => {
      const ref = (body as { tenant?: unknown } | null)?.tenant;
      await deps.sessions.chooseTenant(sessionToken(request), ref === null || ref === undefined || ref === "" ? null : String(ref));
      return { tenant: ref ?? null };
    }, { permission: { right: "any" } });
}

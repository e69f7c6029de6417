// Mailgun's subaccounts (/v5/accounts/subaccounts) over core/tenants (docs/tenants.md), in the
// shapes mailgun.js reads: `{subaccount:{id,name,status,created_at,updated_at,features}}` and
// `{subaccounts:[…],total}`. The id is the tenant id as a string; status `open` (active),
// `disabled` (suspended) or `closed` (terminated). Only the primary account acting for itself.
import type { Tenant, TenantStatus } from "../../core/tenants.ts";
import type { SurfaceDeps } from "../deps.ts";
import { json } from "../errors.ts";
import { readForm, routeGroup } from "./form.ts";
import { invalid, notFound } from "../../core/errors.ts";
import { PRIMARY_MANAGE as manage, PRIMARY_READ as read } from "../../core/permissions.ts";

type Deps = Pick<SurfaceDeps, "tenants">;

const STATUS: Record<TenantStatus, string> = { active: "open", suspended: "disabled", terminated: "closed" };
const BASE = "/v5/accounts/subaccounts";

// postern's tenants have no per-feature switches; sending follows the status.
const toWire = (t: Tenant) => {
  const at = new Date(t.createdAt).toISOString();
  return { id: String(t.id), name: t.name, status: STATUS[t.status], created_at: at, updated_at: at,
    features: { sending: { enabled: t.status === "active" } } };
};

/** The subaccount a path's id names; Mailgun's 404 otherwise (the primary is none). */
export async function subaccountOf(deps: Pick<SurfaceDeps, "tenants">, id: string): Promise<Tenant> {
  const t = await deps.tenants.subaccount(id);
  if (!t) throw notFound("Subaccount not found");
  return t;
}

export function subaccountRoutes(deps: Deps) {
  return routeGroup()
    .get(BASE, async ({ request }) => {
      const form = await readForm(request);
      const enabled = form.get("enabled");
      const skip = Number(form.get("skip") ?? 0);
      const limit = Number(form.get("limit") ?? 10);
      if (!Number.isInteger(skip) || skip < 0 || !Number.isInteger(limit) || limit < 1 || limit > 1000) throw invalid("skip and limit must be whole numbers (limit 1 to 1000)");
      let list = await deps.tenants.subaccounts();
      if (enabled !== undefined) list = list.filter((t) => (t.status === "active") === (enabled === "true"));
      if (form.get("sort") === "desc") list.reverse();
      return json(200, { subaccounts: list.slice(skip, skip + limit).map(toWire), total: list.length });
    }, { permission: read })
    .get(`${BASE}/:id`, async ({ params }) => json(200, { subaccount: toWire(await subaccountOf(deps, params.id)) }), { permission: read })
    .post(BASE, async ({ request }) => {
      const name = (await readForm(request)).get("name");
      if (!name) throw invalid("name parameter is missing", "name");
      return json(200, { subaccount: toWire(await deps.tenants.add(name)) });
    }, { permission: manage })
    .post(`${BASE}/:id/enable`, async ({ params }) => {
      const t = await subaccountOf(deps, params.id);
      return json(200, { subaccount: toWire(await deps.tenants.setStatus(t.id, "active")) });
    }, { permission: manage })
    .post(`${BASE}/:id/disable`, async ({ params }) => {
      const t = await subaccountOf(deps, params.id);
      return json(200, { subaccount: toWire(await deps.tenants.setStatus(t.id, "suspended")) });
    }, { permission: manage });
}

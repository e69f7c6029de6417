// /api/v1/subaccounts: SparkPost's subaccounts over core/tenants (docs/tenants.md). A subaccount is
// a tenant: `id` / `subaccount_id` is the tenant id, `name` its name, `status` active, suspended or
// terminated. Create with `key_label` and `key_grants` also makes the tenant's own account key.
// Only the primary account acting for itself manages subaccounts (permission `primary`).
import { Elysia } from "elysia";
import type { Tenant } from "../../core/tenants.ts";
import type { SurfaceDeps } from "../deps.ts";
import { json } from "../errors.ts";
import { badFormat, missingField, notFoundError } from "./errors.ts";
import { acceptsGrant } from "./policy.ts";
import { permissions } from "../permission.ts";
import { isObject } from "../wire.ts";
import { AppError } from "../../core/errors.ts";
import { PRIMARY_MANAGE as manage, PRIMARY_READ as read } from "../../core/permissions.ts";

type Deps = Pick<SurfaceDeps, "tenants" | "access">;

// SparkPost reports a subaccount's compliance separately from its status; postern has no
// compliance review, so every subaccount is "active" there.
const toWire = (t: Tenant) => ({ id: t.id, name: t.name, status: t.status, compliance_status: "active" });

const str = (v: unknown, field: string) => {
  if (v !== undefined && typeof v !== "string") throw badFormat(`${field} must be a string`);
  return v as string | undefined;
};

async function tenantOf(deps: Deps, id: string): Promise<Tenant> {
  const t = await deps.tenants.subaccount(id);
  if (!t) throw notFoundError(`Subaccount '${id}' does not exist`);
  return t;
}

/** The core's "not valid" refusal in SparkPost's 422 shape (a taken name stays the core's 409). */
function spRefusal(err: unknown): never {
  if (err instanceof AppError && err.code === "invalid") throw badFormat(err.message);
  throw err;
}

export function subaccountRoutes(deps: Deps) {
  return (app: Elysia) => app.use(permissions)
    .get("/subaccounts", async () => json(200, { results: (await deps.tenants.subaccounts()).map(toWire) }), { permission: read })
    .get("/subaccounts/:id", async ({ params }) => json(200, { results: toWire(await tenantOf(deps, params.id)) }), { permission: read })
    .post("/subaccounts", async ({ body }) => {
      if (!isObject(body)) throw badFormat("the request body must be a JSON object");
      const name = str(body.name, "name");
      if (!name) throw missingField("name is a required field");
      const setupKey = body.setup_api_key !== false;
      const label = str(body.key_label, "key_label");
      const grants = body.key_grants;
      if (setupKey && !label) throw missingField("key_label is a required field");
      if (setupKey && (!Array.isArray(grants) || !grants.length || !grants.every((g) => typeof g === "string"))) throw missingField("key_grants must be a non-empty array of grants");
      const unknown = setupKey ? (grants as string[]).find((g) => !acceptsGrant(g)) : undefined;
      if (unknown) throw badFormat(`unknown grant ${unknown}`);
      if (Array.isArray(body.key_valid_ips) && body.key_valid_ips.length) throw badFormat("key_valid_ips is not supported by postern");
      const t = await deps.tenants.add(name).catch(spRefusal);
      if (!setupKey) return json(200, { results: { subaccount_id: t.id } });
      const k = await deps.access.createKey({ kind: "account", label: label!, grants: [...new Set(grants as string[])], tenant: t.id });
      return json(200, { results: { subaccount_id: t.id, key: k.key, label: k.label, short_key: k.id.slice(0, 4) } });
    }, { permission: manage })
    .put("/subaccounts/:id", async ({ params, body }) => {
      if (!isObject(body)) throw badFormat("the request body must be a JSON object");
      const t = await tenantOf(deps, params.id);
      const name = str(body.name, "name");
      const status = str(body.status, "status");
      if (name !== undefined) await deps.tenants.rename(t.id, name).catch(spRefusal);
      if (status !== undefined) await deps.tenants.setStatus(t.id, status).catch(spRefusal);
      return json(200, { results: { message: "Successfully updated subaccount information" } });
    }, { permission: manage });
}

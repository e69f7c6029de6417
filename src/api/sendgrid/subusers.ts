// SendGrid's subusers (/v3/subusers) over core/tenants (docs/tenants.md): a subuser is a tenant, its
// `username` the tenant's name and `user_id` / `id` its id; `disabled` is a suspended tenant. Only
// the primary account acting for itself manages them (permission `primary`). SendGrid's password
// and ips are accepted but not kept: a tenant signs in with its own keys, and per-tenant IP pools
// are not built yet (docs/tenants.md, "Not done yet"). Stats: /v3/subusers/stats in stats.ts.
import { Elysia } from "elysia";
import type { Tenant } from "../../core/tenants.ts";
import type { SurfaceDeps } from "../deps.ts";
import { json } from "../errors.ts";
import { permissions } from "../permission.ts";
import { AppError } from "../../core/errors.ts";
import { PRIMARY_MANAGE as MANAGE, PRIMARY_READ as READ } from "../../core/permissions.ts";
import { isObject } from "../wire.ts";

type Deps = Pick<SurfaceDeps, "tenants">;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const bad = (field: string, message: string) => new AppError("invalid", message, { field });
const objectOf = (body: unknown): Record<string, unknown> => (isObject(body) ? body : {});
/** A tenant refusal of `code` seen as `as` (SendGrid's own words); anything else passes through. */
const refusedAs = (code: string, as: () => AppError) => (e: unknown): never => {
  throw e instanceof AppError && e.code === code ? as() : e;
};
const view = (t: Tenant) => ({ id: t.id, username: t.name, disabled: t.status !== "active" });

async function subuser(deps: Deps, name: string): Promise<Tenant> {
  const t = await deps.tenants.subaccount(name, true);
  if (!t) throw new AppError("not_found", `subuser ${name} does not exist`);
  return t;
}

export function subuserRoutes(deps: Deps) {
  return new Elysia({ name: "sendgrid-subusers" }).use(permissions)
    .get("/v3/subusers", async ({ request }) => {
      const q = new URL(request.url).searchParams;
      const limit = Number(q.get("limit") ?? 500);
      const offset = Number(q.get("offset") ?? 0);
      if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw bad("limit", "limit must be 1 to 500");
      if (!Number.isInteger(offset) || offset < 0) throw bad("offset", "offset must be a whole number");
      const username = q.get("username");
      const list = (await deps.tenants.subaccounts()).filter((t) => !username || t.name === username);
      return json(200, list.slice(offset, offset + limit).map(view));
    }, { permission: READ })
    .post("/v3/subusers", async ({ body }) => {
      const b = objectOf(body);
      if (typeof b.username !== "string" || !b.username) throw bad("username", "username is required");
      if (typeof b.email !== "string" || !EMAIL.test(b.email)) throw bad("email", "email must be a valid email address");
      if (typeof b.password !== "string" || !b.password) throw bad("password", "password is required");
      if (b.ips !== undefined && (!Array.isArray(b.ips) || !b.ips.every((ip) => typeof ip === "string"))) throw bad("ips", "ips must be an array of IP addresses");
      const t = await deps.tenants.add(b.username).catch(refusedAs("conflict", () => bad("username", "username exists")));
      return json(200, { username: t.name, user_id: t.id, email: b.email, credit_allocation: { type: "unlimited" } });
    }, { permission: MANAGE })
    .patch("/v3/subusers/:subuser_name", async ({ params, body }) => {
      const t = await subuser(deps, params.subuser_name);
      const b = objectOf(body);
      if (typeof b.disabled !== "boolean") throw bad("disabled", "disabled must be true or false");
      await deps.tenants.setStatus(t.id, b.disabled ? "suspended" : "active");
      return new Response(null, { status: 204 });
    }, { permission: MANAGE });
}

// The tenant service over a real (in-memory SQLite) store: names checked and unique, tenant 0
// fixed, status rules (terminated stays terminated), lookups by id or name, audit with the tenant.
import { expect, test } from "bun:test";
import { openSqliteStore } from "../../src/store/sqlite/index.ts";
import { createAuditLog } from "../../src/core/audit.ts";
import { createTenantService, mayWrite } from "../../src/core/tenants.ts";
import { withScene } from "../../src/core/actor.ts";

test("add, rename, suspend, terminate; refusals; audit entries carry the tenant", () => withScene(async () => {
  const store = await openSqliteStore(":memory:", ["us"]);
  const audit = createAuditLog({ store: store.control, now: () => 1_800_000_000_000 });
  const tenants = createTenantService({ store: store.control, now: () => 1_800_000_000_000, audit });
  const a = await tenants.add("acme");
  expect(a).toEqual({ id: 1, name: "acme", status: "active", createdAt: 1_800_000_000_000 });
  await expect(tenants.add("acme")).rejects.toThrow(/already exists/);
  await expect(tenants.add("42")).rejects.toThrow(/not a valid tenant name/);
  await expect(tenants.add("bad name")).rejects.toThrow(/not a valid tenant name/);
  expect((await tenants.require("acme")).id).toBe(1);
  expect((await tenants.require("1")).name).toBe("acme");
  await expect(tenants.require("nope")).rejects.toThrow(/not found/);
  await expect(tenants.rename(0, "main")).rejects.toThrow(/keeps its name/);
  await expect(tenants.suspend(0)).rejects.toThrow(/primary account/);
  expect((await tenants.rename("acme", "acme2")).name).toBe("acme2");
  const s = await tenants.suspend(1);
  expect([s.status, mayWrite(s)]).toEqual(["suspended", false]);
  expect(mayWrite(await tenants.setStatus(1, "active"))).toBe(true);
  await tenants.setStatus(1, "terminated");
  await expect(tenants.setStatus(1, "active")).rejects.toThrow(/stays terminated/);
  const { items } = await audit.list({ limit: 10 });
  expect(items.map((e) => [e.action, e.target, e.tenant])).toEqual([
    ["tenant.terminate", "acme2", 1], ["tenant.enable", "acme2", 1], ["tenant.suspend", "acme2", 1], ["tenant.rename", "acme2", 1], ["tenant.add", "acme", 1],
  ]);
  await store.close();
}, { kind: "cli", id: "ops" }));

test("subaccounts: every tenant but the primary; one by decimal id, or by name only when asked", async () => {
  const store = await openSqliteStore(":memory:", ["us"]);
  const tenants = createTenantService({ store: store.control, now: () => 1_800_000_000_000 });
  await tenants.add("acme");
  await tenants.add("beta");
  expect((await tenants.subaccounts()).map((t) => t.name)).toEqual(["acme", "beta"]);
  expect((await tenants.subaccount("2"))?.name).toBe("beta");
  for (const ref of ["0", "primary", "acme", "9", "-1", "1.0", ""]) expect(await tenants.subaccount(ref)).toBeNull();
  expect((await tenants.subaccount("acme", true))?.id).toBe(1);
  expect(await tenants.subaccount("primary", true)).toBeNull();
  expect(await tenants.subaccount("0", true)).toBeNull();
  await store.close();
});

// The store contract for tenants (core/tenants.ts): tenant 0 exists from the migration, new ids
// count up from 1, names are unique, status changes; domains and keys carry their tenant and
// listDomains filters by it (the store, not a handler, scopes domains by tenant).
import { expect, test } from "bun:test";
import type { Store } from "../../src/core/store-port.ts";

const NOW = 1_800_000_000_000;
type Open = () => Store | Promise<Store>;

const domain = (name: string, tenantId?: number) => ({ name, zone: "us", wildcard: false, dkimSelector: "s1", keys: [], validation: true,
  botDetection: true, openTracking: false, clickTracking: false, unsubscribeTracking: false, inbound: false, limitMax: 0, limitWindow: "month",
  ...(tenantId === undefined ? {} : { tenantId }) });

export function tenantsContract(open: Open) {
  test("tenants: 0 is the primary, ids count up, names are unique, status and name change", async () => {
    const store = await open();
    const c = store.control;
    expect((await c.listTenants()).map((t) => [t.id, t.name, t.status])).toEqual([[0, "primary", "active"]]);
    const a = await c.insertTenant({ name: "acme", status: "active", createdAt: NOW });
    expect(a).toEqual({ id: 1, name: "acme", status: "active", createdAt: NOW });
    const b = await c.insertTenant({ name: "beta", status: "active", createdAt: NOW + 1 });
    expect(b.id).toBe(2);
    await expect(c.insertTenant({ name: "acme", status: "active", createdAt: NOW })).rejects.toThrow();
    expect(await c.getTenant({ name: "beta" })).toEqual(b);
    expect(await c.getTenant({ id: 9 })).toBeNull();
    expect(await c.updateTenant(1, { status: "suspended" })).toEqual({ ...a, status: "suspended" });
    expect(await c.updateTenant(2, { name: "gamma" })).toEqual({ ...b, name: "gamma" });
    expect(await c.updateTenant(9, { name: "x" })).toBeNull();
    expect((await c.getTenant({ id: 1 }))?.status).toBe("suspended");
    expect((await c.listTenants()).map((t) => t.name)).toEqual(["primary", "acme", "gamma"]);
    await store.close();
  });

  test("domains and keys carry their tenant (0 by default); listDomains(tenant) returns only that tenant's", async () => {
    const store = await open();
    const c = store.control;
    const t = await c.insertTenant({ name: "acme", status: "active", createdAt: NOW });
    const d0 = await c.insertDomain(domain("zero.test"), NOW);
    const d1 = await c.insertDomain(domain("one.test", t.id), NOW);
    expect([d0.tenantId ?? 0, d1.tenantId]).toEqual([0, t.id]);
    expect((await c.getDomain("one.test"))?.tenantId).toBe(t.id);
    expect((await c.listDomains(t.id)).map((d) => d.name)).toEqual(["one.test"]);
    expect((await c.listDomains(0)).map((d) => d.name)).toEqual(["zero.test"]);
    expect((await c.listDomains()).map((d) => d.name)).toEqual(["zero.test", "one.test"]);
    const key = { kind: "account" as const, domainId: null, label: "", grants: [], createdAt: NOW, lastUsedAt: null, hash: "h", revokedAt: null };
    await c.insertKey({ ...key, id: "kp" });
    await c.insertKey({ ...key, id: "kt", tenantId: t.id });
    expect((await c.getKey("kp"))?.tenantId ?? 0).toBe(0);
    expect((await c.getKey("kt"))?.tenantId).toBe(t.id);
    expect((await c.listKeys(t.id)).map((k) => k.id)).toEqual(["kt"]);
    expect((await c.listKeys(0)).map((k) => k.id)).toEqual(["kp"]);
    expect((await c.listKeys()).map((k) => k.id).sort()).toEqual(["kp", "kt"]);
    await store.close();
  });

  test("webhooks carry their tenant; a domain's list holds its own and its tenant's account-wide targets; lists filter by tenant", async () => {
    const store = await open();
    const c = store.control;
    const t = await c.insertTenant({ name: "acme", status: "active", createdAt: NOW });
    const d0 = await c.insertDomain(domain("zero.test"), NOW);
    const d1 = await c.insertDomain(domain("one.test", t.id), NOW);
    const hook = (id: string, domainId: number | null, tenantId: number | undefined, at: number) =>
      ({ id, domainId, events: [], url: "https://hooks.example/x", format: "native", extra: {}, createdAt: at, ...(tenantId ? { tenantId } : {}) });
    await c.insertWebhook(hook("p-all", null, undefined, NOW));
    await c.insertWebhook(hook("t-all", null, t.id, NOW + 1));
    await c.insertWebhook(hook("t-one", d1.id, t.id, NOW + 2));
    await c.insertWebhook(hook("p-zero", d0.id, undefined, NOW + 3));
    expect((await c.listWebhooks(d1.id)).map((w) => w.id)).toEqual(["t-all", "t-one"]);
    expect((await c.listWebhooks(d0.id)).map((w) => w.id)).toEqual(["p-all", "p-zero"]);
    expect((await c.listWebhooks(null)).map((w) => w.id)).toEqual(["p-all", "t-all", "t-one", "p-zero"]);
    expect((await c.listWebhooks(null, t.id)).map((w) => [w.id, w.tenantId])).toEqual([["t-all", t.id], ["t-one", t.id]]);
    expect((await c.listWebhooks(d1.id, 0)).map((w) => w.id)).toEqual([]);
    await store.close();
  });

  test("a tenant's monthly limit and pool are set and cleared; the month counters take within a bound, give back, and are set", async () => {
    const store = await open();
    const c = store.control;
    const a = await c.insertTenant({ name: "acme", status: "active", createdAt: NOW });
    expect(await c.updateTenant(a.id, { monthlyLimit: 5, pool: "bulk" })).toEqual({ ...a, monthlyLimit: 5, pool: "bulk" });
    expect(await c.updateTenant(a.id, { status: "suspended" })).toEqual({ ...a, status: "suspended", monthlyLimit: 5, pool: "bulk" });
    expect(await c.updateTenant(a.id, { monthlyLimit: 0 })).toMatchObject({ monthlyLimit: 0 });
    expect(await c.updateTenant(a.id, { monthlyLimit: null, pool: null })).toEqual({ ...a, status: "suspended" });
    expect(await c.getTenant({ id: a.id })).toEqual({ ...a, status: "suspended" });
    expect(await c.updateTenant(a.id, {})).toEqual({ ...a, status: "suspended" });
    const month = Date.UTC(2027, 0, 1);
    expect(await c.tenantSends(a.id, month)).toBe(0);
    expect(await c.takeTenantSends(a.id, month, 4, 5)).toBe(true);
    expect(await c.takeTenantSends(a.id, month, 2, 5)).toBe(false);
    expect(await c.takeTenantSends(a.id, month, 1, 5)).toBe(true);
    expect(await c.takeTenantSends(a.id, month, 1, 5)).toBe(false);
    expect(await c.tenantSends(a.id, month)).toBe(5);
    expect(await c.takeTenantSends(a.id, month, -2, null)).toBe(true);
    expect(await c.tenantSends(a.id, month)).toBe(3);
    // A first take larger than the bound adds nothing; another month and another tenant count apart.
    expect(await c.takeTenantSends(a.id, month + 1, 9, 5)).toBe(false);
    expect(await c.tenantSends(a.id, month + 1)).toBe(0);
    expect(await c.takeTenantSends(0, month, 7, null)).toBe(true);
    expect(await c.tenantSends(0, month)).toBe(7);
    await c.setTenantSends(a.id, month, 40);
    await c.setTenantSends(a.id, month + 2, 1);
    expect([await c.tenantSends(a.id, month), await c.tenantSends(a.id, month + 2)]).toEqual([40, 1]);
    expect(await c.takeTenantSends(a.id, month, -100, null)).toBe(true);
    expect(await c.tenantSends(a.id, month)).toBe(0);
    await store.close();
  });
}

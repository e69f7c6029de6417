// The store contract for the tenant scoping of account-level data (docs/tenants.md): templates,
// lists, unsubscribe groups, scheduled-send batches and inbound rules carry their tenant (0 when
// not given), each tenant's account-wide rows have their own id space, and the list reads filter
// by tenant in the store (undefined: every tenant's).
import { expect, test } from "bun:test";
import type { Store } from "../../src/core/store-port.ts";

const NOW = 1_800_000_000_000;
type Open = () => Store | Promise<Store>;

const domain = (name: string, tenantId: number) => ({ name, zone: "us", wildcard: false, dkimSelector: "s1", keys: [], validation: true,
  botDetection: true, openTracking: false, clickTracking: false, unsubscribeTracking: false, inbound: false, limitMax: 0, limitWindow: "month", tenantId });

async function twoTenants(store: Store) {
  const a = await store.control.insertTenant({ name: "acme", status: "active", createdAt: NOW });
  const b = await store.control.insertTenant({ name: "beta", status: "active", createdAt: NOW });
  return [a.id, b.id] as const;
}

export function tenscopeContract(open: Open) {
  test("templates: each tenant's account-wide templates have their own ids; reads filter by tenant", async () => {
    const store = await open();
    const [a, b] = await twoTenants(store);
    const d = await store.control.insertDomain(domain("acme.test", a), NOW);
    const t = store.templates;
    const base = { id: "welcome", domainId: null, name: "Welcome", description: "", generation: "dynamic" as const, extra: {}, createdAt: NOW, updatedAt: NOW };
    const p0 = (await t.insertTemplate({ ...base, tenantId: 0 }))!;
    const pa = (await t.insertTemplate({ ...base, tenantId: a, name: "A" }))!;
    expect(await t.insertTemplate({ ...base, tenantId: a })).toBeNull();
    await t.insertTemplate({ ...base, tenantId: b, name: "B", createdAt: NOW + 1 });
    await t.insertTemplate({ ...base, domainId: d.id, tenantId: a, name: "D" });
    expect([p0.tenantId, pa.tenantId]).toEqual([0, a]);
    expect((await t.getTemplate(null, "welcome", a))?.name).toBe("A");
    expect((await t.getTemplate(null, "welcome", 0))?.name).toBe("Welcome");
    expect((await t.getTemplate(null, "welcome"))?.tenantId).toBe(0);
    expect(await t.getTemplate(null, "welcome", 9)).toBeNull();
    expect((await t.getTemplate(d.id, "welcome"))).toMatchObject({ name: "D", tenantId: a, domainId: d.id });
    expect((await t.listTemplates(null, b)).map((x) => x.name)).toEqual(["B"]);
    expect((await t.listTemplates(null)).map((x) => x.name)).toEqual(["Welcome", "A", "B"]);
    expect((await t.listTemplates(d.id)).map((x) => x.name)).toEqual(["D"]);
    await store.close();
  });

  test("lists: each tenant's account-wide lists have their own ids; listLists filters by tenant and scope", async () => {
    const store = await open();
    const [a, b] = await twoTenants(store);
    const d = await store.control.insertDomain(domain("acme.test", a), NOW);
    const l = store.lists;
    const base = { kind: "recipient-list" as const, id: "vip", domainId: null, name: "VIP", description: "", extra: {}, createdAt: NOW, updatedAt: NOW };
    await l.insertList({ ...base, tenantId: 0 });
    await l.insertList({ ...base, tenantId: a, name: "A" });
    expect(await l.insertList({ ...base, tenantId: a })).toBeNull();
    await l.insertList({ ...base, tenantId: b, name: "B" });
    await l.insertList({ ...base, domainId: d.id, tenantId: a, name: "D" });
    expect((await l.getList("recipient-list", null, "vip", b))?.name).toBe("B");
    expect((await l.getList("recipient-list", null, "vip"))?.name).toBe("VIP");
    expect((await l.getList("recipient-list", d.id, "vip"))).toMatchObject({ name: "D", tenantId: a });
    expect((await l.listLists("recipient-list", undefined, a)).map((x) => x.name)).toEqual(["A", "D"]);
    expect((await l.listLists("recipient-list", [null], a)).map((x) => x.name)).toEqual(["A"]);
    expect((await l.listLists("recipient-list", [d.id, null], 0)).map((x) => x.name)).toEqual(["VIP"]);
    expect((await l.listLists("recipient-list")).map((x) => x.name)).toEqual(["VIP", "A", "B", "D"]);
    await store.close();
  });

  test("unsubscribe groups, send batches and inbound rules carry their tenant; lists of them filter by it", async () => {
    const store = await open();
    const [a] = await twoTenants(store);
    const c = store.control;
    const g0 = await c.insertGroup({ domainId: null, tenantId: 0, name: "News", description: "", isDefault: false, createdAt: NOW });
    const ga = await c.insertGroup({ domainId: null, tenantId: a, name: "News", description: "", isDefault: false, createdAt: NOW });
    expect((await c.getGroup(ga.id))?.tenantId).toBe(a);
    expect((await c.listGroups(a)).map((g) => g.id)).toEqual([ga.id]);
    expect((await c.listGroups(0)).map((g) => g.id)).toEqual([g0.id]);
    expect((await c.listGroups()).map((g) => g.id)).toEqual([g0.id, ga.id]);
    await c.insertBatch({ id: "b0", domainId: null, tenantId: 0, hold: null, createdAt: NOW, updatedAt: NOW });
    await c.insertBatch({ id: "ba", domainId: null, tenantId: a, hold: null, createdAt: NOW + 1, updatedAt: NOW + 1 });
    expect((await c.getBatch("ba"))?.tenantId).toBe(a);
    expect((await c.listBatches(a)).map((x) => x.id)).toEqual(["ba"]);
    expect((await c.listBatches()).map((x) => x.id)).toEqual(["b0", "ba"]);
    const route = (id: string, tenantId?: number) => ({ id, kind: "route" as const, domainId: null, ...(tenantId === undefined ? {} : { tenantId }),
      spec: { priority: 0, description: id, expression: "catch_all()", actions: ["stop()"] }, createdAt: NOW });
    await c.insertRule(route("r0"));
    await c.insertRule(route("ra", a));
    expect((await c.getRule("route", "r0"))?.tenantId).toBe(0);
    expect((await c.getRule("route", "ra"))?.tenantId).toBe(a);
    expect((await c.listRules("route", a)).map((r) => r.id)).toEqual(["ra"]);
    expect((await c.listRules("route", 0)).map((r) => r.id)).toEqual(["r0"]);
    expect((await c.listRules("route")).map((r) => r.id).sort()).toEqual(["r0", "ra"]);
    await store.close();
  });
}

// The store contract for unsubscribe groups and scheduled-send batches (control data), and for the
// group entries kept among a zone's suppressions (type group:<id>): every engine must pass it.
import { expect, test } from "bun:test";
import type { Store } from "../../src/core/store-port.ts";

const NOW = 1_800_000_000_000;

export function sendControlContract(makeStore: () => Store | Promise<Store>) {
  const withDomain = (store: Store) => store.control.insertDomain({ name: `g${Math.random().toString(36).slice(2, 8)}.test`, zone: "us",
    wildcard: false, dkimSelector: "s1", keys: [], validation: false, botDetection: false, openTracking: false, clickTracking: false,
    unsubscribeTracking: false, inbound: false, limitMax: 0, limitWindow: "month" }, NOW);

  test("unsubscribe groups get ascending ids, update, list by id and delete (and go with their domain)", async () => {
    const store = await makeStore();
    const d = await withDomain(store);
    const a = await store.control.insertGroup({ domainId: null, tenantId: 0, name: "News", description: "weekly", isDefault: false, createdAt: NOW });
    const b = await store.control.insertGroup({ domainId: d.id, tenantId: 0, name: "Offers", description: "", isDefault: true, createdAt: NOW + 1 });
    expect(b.id).toBeGreaterThan(a.id);
    expect(b).toEqual({ id: b.id, domainId: d.id, tenantId: 0, name: "Offers", description: "", isDefault: true, createdAt: NOW + 1 });
    expect(await store.control.getGroup(a.id)).toEqual(a);
    expect(await store.control.updateGroup(a.id, { description: "monthly", isDefault: true })).toEqual({ ...a, description: "monthly", isDefault: true });
    expect(await store.control.updateGroup(a.id, { name: "Letters" })).toMatchObject({ name: "Letters", description: "monthly", isDefault: true });
    expect(await store.control.updateGroup(9_999_999, { name: "x" })).toBeNull();
    expect((await store.control.listGroups()).map((g) => g.id)).toEqual([a.id, b.id]);
    expect(await store.control.deleteGroup(a.id)).toBe(true);
    expect(await store.control.deleteGroup(a.id)).toBe(false);
    expect(await store.control.getGroup(a.id)).toBeNull();
    await store.control.deleteDomain(d.name);
    expect(await store.control.listGroups()).toEqual([]);
    const c = await store.control.insertGroup({ domainId: null, tenantId: 0, name: "Later", description: "", isDefault: false, createdAt: NOW });
    expect(c.id).toBeGreaterThan(b.id);
    await store.close();
  });

  test("send batches keep their hold across reads; an unknown batch cannot be held", async () => {
    const store = await makeStore();
    const d = await withDomain(store);
    await store.control.insertBatch({ id: "b1", domainId: d.id, tenantId: 0, hold: null, createdAt: NOW, updatedAt: NOW });
    await store.control.insertBatch({ id: "b2", domainId: null, tenantId: 0, hold: null, createdAt: NOW + 1, updatedAt: NOW + 1 });
    await expect(store.control.insertBatch({ id: "b1", domainId: null, tenantId: 0, hold: null, createdAt: NOW, updatedAt: NOW })).rejects.toThrow();
    expect(await store.control.setBatchHold("b1", "pause", NOW + 5)).toBe(true);
    expect(await store.control.getBatch("b1")).toEqual({ id: "b1", domainId: d.id, tenantId: 0, hold: "pause", createdAt: NOW, updatedAt: NOW + 5 });
    expect(await store.control.setBatchHold("b2", "cancel", NOW + 6)).toBe(true);
    expect(await store.control.setBatchHold("b1", null, NOW + 7)).toBe(true);
    expect((await store.control.listBatches()).map((b) => [b.id, b.hold])).toEqual([["b1", null], ["b2", "cancel"]]);
    expect(await store.control.setBatchHold("nope", "pause", NOW)).toBe(false);
    expect(await store.control.getBatch("nope")).toBeNull();
    await store.control.deleteDomain(d.name);
    expect((await store.control.listBatches()).map((b) => b.id)).toEqual(["b2"]);
    await store.close();
  });

  test("group entries are suppressions of type group:<id>, apart from the other lists of an address", async () => {
    const store = await makeStore();
    const z = store.zone("us");
    const entry = (type: string, address: string) => ({ domain: "a.test", type: type as "unsubscribes" | `group:${number}`, address, reason: "", code: "", scope: null, createdAt: NOW });
    await z.addSuppressions([entry("group:7", "X@y.test"), entry("group:8", "x@y.test"), entry("unsubscribes", "x@y.test"), entry("group:7", "z@y.test")]);
    expect((await z.findSuppressed("a.test", ["x@Y.test"])).map((s) => s.type as string).sort()).toEqual(["group:7", "group:8", "unsubscribes"]);
    expect((await z.listSuppressions({ domain: "a.test", type: "group:7", limit: 10 })).map((s) => s.address)).toEqual(["x@y.test", "z@y.test"]);
    expect(await z.getSuppression("a.test", "group:8", "X@Y.TEST")).toMatchObject({ type: "group:8", address: "x@y.test" });
    expect(await z.deleteSuppression("a.test", "group:7", "x@y.test")).toBe(1);
    expect(await z.deleteAllSuppressions("a.test", "group:8")).toBe(1);
    expect((await z.findSuppressed("a.test", ["x@y.test"])).map((s) => s.type as string)).toEqual(["unsubscribes"]);
    await store.close();
  });
}

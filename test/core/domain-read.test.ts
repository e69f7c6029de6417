// The one cached domain read: repeated reads are answered from memory, a write through the store
// is seen at once, and a write another process commits (a second store on the same files, as the
// CLI beside a server) is seen by the first read of the next turn of the event loop: no timer.
// (Another process's commit reaches a server through I/O, so in a later turn; the change mark is
// asked once per turn.)
import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "../../src/store/sqlite/index.ts";
import { coalesced, withDomainCache } from "../../src/core/domain-read.ts";
import type { Store } from "../../src/core/store-port.ts";

const NOW = 1_800_000_000_000;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const settings = { validation: true, botDetection: true, openTracking: false, clickTracking: false, unsubscribeTracking: false, inbound: false,
  limitMax: 0, limitWindow: "month" as const };

/** Counts the engine's domain reads, so a test can tell a cached answer from a read. */
function counting(engine: Store) {
  const count = { reads: 0 };
  const control = { ...engine.control,
    getDomain: (n: string) => { count.reads++; return engine.control.getDomain(n); },
    getDomainById: (id: number) => { count.reads++; return engine.control.getDomainById(id); },
    listDomains: (tenant?: number) => { count.reads++; return engine.control.listDomains(tenant); } };
  return { store: { ...engine, control }, count };
}

test("reads are cached until a write: through the store or by another connection, seen by the next read", async () => {
  const dir = mkdtempSync(join(tmpdir(), "postern-domain-read-"));
  const engine = openSqliteStore(dir, ["us"]);
  const other = openSqliteStore(dir, ["us"]);
  const { store: counted, count } = counting(engine);
  const store = withDomainCache(counted);
  expect(await store.control.getDomain("a.test")).toBeNull();
  const d = await store.control.insertDomain({ ...settings, name: "a.test", zone: "us", wildcard: false, dkimSelector: "s1", keys: [] }, NOW);
  expect((await store.control.getDomain("a.test"))?.id).toBe(d.id);
  const reads = count.reads;
  expect((await store.control.getDomain("a.test"))?.id).toBe(d.id);
  expect((await store.control.getDomainById(d.id))?.id).toBe(d.id);
  expect(count.reads).toBe(reads);
  // Another process's write: seen by the next turn's reads, by name and by id.
  await other.control.updateDomain("a.test", { state: "disabled" }, NOW);
  await nextTurn();
  expect((await store.control.getDomain("a.test"))?.state).toBe("disabled");
  expect((await store.control.getDomainById(d.id))?.state).toBe("disabled");
  // A write through the cached store is seen at once, by name and by id.
  await store.control.updateDomain("a.test", { state: "active" }, NOW);
  expect((await store.control.getDomain("a.test"))?.state).toBe("active");
  expect((await store.control.getDomainById(d.id))?.state).toBe("active");
  // Webhook targets: cached, then another process's new target is listed by the next read.
  expect(await store.control.listWebhooks(d.id)).toEqual([]);
  await other.control.insertWebhook({ id: "wh1", domainId: d.id, events: [], url: "https://hooks.example/a", format: "native", extra: {}, createdAt: NOW });
  await nextTurn();
  expect((await store.control.listWebhooks(d.id)).map((w) => w.id)).toEqual(["wh1"]);
  await store.control.deleteWebhook("wh1");
  expect(await store.control.listWebhooks(d.id)).toEqual([]);
  // The list of domains: cached and shared (frozen: a caller cannot change what the next one reads),
  // a tenant's filtered from it, then another process's new domain is listed.
  const listed = await store.control.listDomains();
  expect(listed.map((x) => x.name)).toEqual(["a.test"]);
  expect(() => listed.pop()).toThrow();
  const listReads = count.reads;
  expect((await store.control.listDomains()).map((x) => x.name)).toEqual(["a.test"]);
  expect((await store.control.listDomains(0)).map((x) => x.name)).toEqual(["a.test"]);
  expect((await store.control.listDomains(0)).map((x) => x.name)).toEqual(["a.test"]);
  expect(count.reads).toBe(listReads);
  await other.control.insertDomain({ ...settings, name: "b.test", zone: "us", wildcard: false, dkimSelector: "s1", keys: [] }, NOW);
  await nextTurn();
  expect((await store.control.listDomains()).map((x) => x.name).sort()).toEqual(["a.test", "b.test"]);
  await store.control.deleteDomain("b.test");
  expect((await store.control.listDomains()).map((x) => x.name)).toEqual(["a.test"]);
  await other.control.deleteDomain("a.test");
  await nextTurn();
  expect(await store.control.getDomain("a.test")).toBeNull();
  expect(await store.control.listDomains()).toEqual([]);
  await other.close();
  await store.close();
});

/** Counts the engine's tenant and domain-list reads. */
function countingLists(engine: Store) {
  const count = { tenants: 0, lists: 0 };
  const control = { ...engine.control,
    getTenant: (q: { id: number } | { name: string }) => { count.tenants++; return engine.control.getTenant(q); },
    listDomains: (tenant?: number) => { count.lists++; return engine.control.listDomains(tenant); } };
  return { store: { ...engine, control }, count };
}

/** The cached store counting its tenant and list reads, and a second store on the same files (another process). */
async function cachedBesideAnother() {
  const dir = mkdtempSync(join(tmpdir(), "postern-domain-read-"));
  const { store: counted, count } = countingLists(openSqliteStore(dir, ["us"]));
  return { store: withDomainCache(counted), other: openSqliteStore(dir, ["us"]), count };
}

test("tenants by id and the domain list are cached too: a suspension or a domain move elsewhere is seen by the next turn", async () => {
  const { store, other, count } = await cachedBesideAnother();
  const acme = await store.control.insertTenant({ name: "acme", status: "active", createdAt: NOW });
  await store.control.insertDomain({ ...settings, name: "a.test", zone: "us", wildcard: false, dkimSelector: "s1", keys: [], tenantId: acme.id }, NOW);
  await store.control.insertDomain({ ...settings, name: "p.test", zone: "us", wildcard: false, dkimSelector: "s1", keys: [] }, NOW);
  expect((await store.control.getTenant({ id: acme.id }))?.status).toBe("active");
  expect((await store.control.listDomains()).map((d) => d.name)).toEqual(["a.test", "p.test"]);
  const reads = { ...count };
  // Steady state: no read reaches the engine, and an unfiltered list is the same list (core/permissions.ts keys its sets on it).
  for (let i = 0; i < 3; i++) expect((await store.control.getTenant({ id: acme.id }))?.status).toBe("active");
  const list = await store.control.listDomains();
  expect(await store.control.listDomains()).toBe(list);
  expect((await store.control.listDomains(acme.id)).map((d) => d.name)).toEqual(["a.test"]);
  expect((await store.control.listDomains(0)).map((d) => d.name)).toEqual(["p.test"]);
  expect(count).toEqual(reads);
  // Another process suspends the tenant: the next turn's read sees it.
  await other.control.updateTenant(acme.id, { status: "suspended" });
  await nextTurn();
  expect((await store.control.getTenant({ id: acme.id }))?.status).toBe("suspended");
  // A write through this store: seen at once.
  await store.control.updateTenant(acme.id, { status: "active" });
  expect((await store.control.getTenant({ id: acme.id }))?.status).toBe("active");
  // Another process adds a domain for the tenant: the next turn's list has it.
  await other.control.insertDomain({ ...settings, name: "b.test", zone: "us", wildcard: false, dkimSelector: "s1", keys: [], tenantId: acme.id }, NOW);
  await nextTurn();
  expect((await store.control.listDomains(acme.id)).map((d) => d.name)).toEqual(["a.test", "b.test"]);
  expect(await store.control.listDomains()).not.toBe(list);
  await other.close();
  await store.close();
});

test("coalesced: a burst shares one run; a caller arriving during a run waits for a run that starts after it", async () => {
  let runs = 0;
  const gates: (() => void)[] = [];
  const check = coalesced(() => { runs++; return new Promise<void>((r) => gates.push(r)); });
  const first = check();
  const second = check();
  const third = check();
  expect(second).toBe(third);
  expect(runs).toBe(1);
  let secondDone = false;
  second.then(() => { secondDone = true; });
  gates[0]!();
  await first;
  await Bun.sleep(0);
  expect(secondDone).toBe(false);
  expect(runs).toBe(2);
  gates[1]!();
  await second;
  expect(secondDone).toBe(true);
});

test("a tenant named by a header (by name) is cached like one by id; a rename here or elsewhere is seen", async () => {
  const { store, other, count } = await cachedBesideAnother();
  const acme = await store.control.insertTenant({ name: "acme", status: "active", createdAt: NOW });
  expect((await store.control.getTenant({ name: "acme" }))?.id).toBe(acme.id);
  const reads = count.tenants;
  for (let i = 0; i < 3; i++) expect((await store.control.getTenant({ name: "acme" }))?.id).toBe(acme.id);
  expect((await store.control.getTenant({ id: acme.id }))?.name).toBe("acme");
  expect(count.tenants).toBe(reads);
  // A name that is no tenant is asked each time (not kept): a tenant made elsewhere is found at once.
  expect(await store.control.getTenant({ name: "beta" })).toBeNull();
  const beta = await other.control.insertTenant({ name: "beta", status: "active", createdAt: NOW });
  expect((await store.control.getTenant({ name: "beta" }))?.id).toBe(beta.id);
  // Renamed through this store: the old name is no tenant at once, the new one is.
  await store.control.updateTenant(acme.id, { name: "acme-eu" });
  expect(await store.control.getTenant({ name: "acme" })).toBeNull();
  expect((await store.control.getTenant({ name: "acme-eu" }))?.id).toBe(acme.id);
  // Renamed by another process: seen by the next turn's read.
  await other.control.updateTenant(acme.id, { name: "acme-us" });
  await nextTurn();
  expect(await store.control.getTenant({ name: "acme-eu" })).toBeNull();
  expect((await store.control.getTenant({ name: "acme-us" }))?.id).toBe(acme.id);
  await other.close();
  await store.close();
});

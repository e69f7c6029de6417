// The unsubscribe group service's audit entries carry the group's own tenant, whatever tenant the
// scene's actor names: a caller acting for none (the CLI's kind of actor) changing tenant 2's group
// leaves every entry in tenant 2's log, none in the primary's.
import { expect, test } from "bun:test";
import { openSqliteStore } from "../../src/store/sqlite/index.ts";
import { createAuditLog } from "../../src/core/audit.ts";
import { createUnsubscribeGroupService } from "../../src/core/unsubscribe-groups.ts";
import { withScene } from "../../src/core/actor.ts";
import type { Principal } from "../../src/core/model.ts";
import { createDomainService } from "../../src/core/domains.ts";
import { createTenantService } from "../../src/core/tenants.ts";
import { createMockResolver } from "../../src/dns.ts";

test("group and group-entry changes are audited under the group's tenant, not the actor's", async () => {
  const store = await openSqliteStore(":memory:", ["us"]);
  const audit = createAuditLog({ store: store.control, now: Date.now });
  const groups = createUnsubscribeGroupService({ store, now: Date.now, audit });
  // Tenant 2 and a domain of it to hold the group's entries (made outside any scene: not audited).
  const tenants = createTenantService({ store: store.control, now: Date.now });
  await tenants.add("one");
  expect((await tenants.add("two")).id).toBe(2);
  await createDomainService({ control: store.control, resolver: createMockResolver({}), now: Date.now, zones: { names: ["us"], default: "us" },
    dns: { mtaHostname: "mta.test", bounceDomain: "", trackingHost: "track.test" } }).add("two.test", { tenant: 2 });
  const p: Principal = { accountId: 1, keyId: "k2", kind: "account", domain: null, grants: [], tenant: 2 };
  let id = 0;
  await withScene(async () => {
    id = (await groups.create(p, { name: "news" })).id;
    await groups.update(p, id, { description: "weekly" });
    await groups.addEntries(p, id, ["A@example.net"]);
    await groups.removeEntry(p, id, "a@example.net");
    await groups.remove(p, id);
  }, { kind: "cli", id: "ops" });
  const of = async (tenant: number) => (await audit.list({}, tenant)).items.map((e) => `${e.action} ${e.target}`).reverse();
  expect(await of(0)).toEqual([]);
  expect(await of(2)).toEqual([`group.create ${id}`, `group.update ${id}`, `suppression.add group:${id}/a@example.net`,
    `suppression.delete group:${id}/a@example.net`, `group.delete ${id}`]);
  await store.close();
});

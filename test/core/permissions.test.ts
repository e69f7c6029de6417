// The permission model's decisions as tables: grants of every vocabulary → rights, route
// declarations × principals, and key delegation (never a stronger key).
import { describe, expect, test } from "bun:test";
import { accountTenant, actFor, auditTenant, actForUser, decide, egressTenant, isKnownGrant, mayManageKey, readTenant, rightsOf, rightsOfGrants, seesTenant, ALL_RIGHTS } from "../../src/core/permissions.ts";
import type { Tenant } from "../../src/core/tenants.ts";
import type { Domain, Principal } from "../../src/core/model.ts";
import { grantRights } from "../../src/api/grants.ts";

const domain = (name: string) => ({ id: name.length, name }) as Domain;
const account = (grants: string[] = []): Principal => ({ accountId: 1, keyId: "a", kind: "account", domain: null, grants });
const domainKey = (name: string, grants: string[] = []): Principal => ({ accountId: 1, keyId: "d", kind: "domain", domain: domain(name), grants });

describe("grants of every vocabulary map onto rights", () => {
  test.each([
    [["transmissions/modify"], ["mail.read", "mail.send"]],
    [["transmissions/view"], ["mail.read"]],
    [["metrics/view"], ["stats.read"]],
    [["api_keys/manage"], ["credentials.manage", "credentials.read", "keys.manage", "keys.read"]],
    [["suppression.read"], ["suppressions.read"]],
    [["suppression.delete"], ["suppressions.manage", "suppressions.read"]],
    [["user.webhooks.event.settings.update"], ["webhooks.manage", "webhooks.read"]],
    [["mail.send"], ["mail.send"]],
    [["ip_pools/manage"], ["account.read"]], // the IP pool listings (read-only)
    [["subaccount/view"], []],
    [["webhooks.read", "bots.use"], ["bots.use", "webhooks.read"]],
  ])("%p", (grants, rights) => {
    expect([...rightsOfGrants(grants, grantRights)].sort() as string[]).toEqual(rights);
  });

  test("no grants: every right; unknown words are not grants", () => {
    expect(rightsOf(account(), grantRights)).toBe(ALL_RIGHTS);
    expect(isKnownGrant("transmissions/modify", grantRights)).toBe(true);
    expect(isKnownGrant("root", grantRights)).toBe(false);
  });
});

describe("decide", () => {
  const send = { right: "mail.send", domain: "domain" } as const;
  test.each([
    ["account key, any domain", account(), send, { domain: "b.test" }, null],
    ["domain key, its domain (any case)", domainKey("a.test"), send, { domain: "A.test" }, null],
    ["domain key, another domain", domainKey("a.test"), send, { domain: "b.test" }, "domain"],
    ["domain key, missing parameter", domainKey("a.test"), send, {}, "domain"],
    ["restricted key without the right", domainKey("a.test", ["transmissions/view"]), send, { domain: "a.test" }, "right"],
    ["domain key on an account-only route", domainKey("a.test"), { right: "domains.read", keys: "account" }, {}, "kind"],
    ["account key on a domain-key route", account(), { right: "mail.send", keys: "domain" }, {}, "kind"],
    ["any key", account(["metrics/view"]), { right: "any" }, {}, null],
  ] as const)("%s", (_, principal, permission, params, reason) => {
    expect(decide(principal, permission, params, grantRights)?.reason ?? null).toBe(reason);
  });
});

describe("mayManageKey: never a key with more rights than the caller's", () => {
  test.each([
    ["full account key, anything", account(), { kind: "account", domain: null, grants: [] }, true],
    ["manager, same rights in another vocabulary", account(["api_keys/manage"]), { kind: "account", domain: null, grants: ["api_keys.create"] }, true],
    ["manager, an unrestricted key", account(["api_keys/manage"]), { kind: "account", domain: null, grants: [] }, false],
    ["manager, a key that sends", account(["api_keys/manage"]), { kind: "domain", domain: "a.test", grants: ["mail.send"] }, false],
    ["domain key, an account key", domainKey("a.test"), { kind: "account", domain: null, grants: ["metrics/view"] }, false],
    ["domain key, another domain's key", domainKey("a.test"), { kind: "domain", domain: "b.test", grants: ["metrics/view"] }, false],
    ["domain key, its own domain's weaker key", domainKey("a.test"), { kind: "domain", domain: "a.test", grants: ["metrics/view"] }, true],
  ] as const)("%s", (_, principal, target, ok) => {
    expect(mayManageKey(principal, { ...target, grants: [...target.grants] }, grantRights)).toBe(ok);
  });
});

describe("acting for a tenant (contract §14): one decision for every surface's header", () => {
  const t = (id: number, status: Tenant["status"] = "active"): Tenant => ({ id, name: `t${id}`, status, createdAt: 0 });
  const domainsOf = async () => [0, 3, 4].map((n) => ({ ...domain(`d${n}.test`), tenantId: n }));

  test("a primary account key acts for any tenant a header names; without one for the primary (or every tenant, where the surface reads all)", async () => {
    const named = (await actFor(account(), t(0), t(3), false, domainsOf)) as Principal;
    expect([named.tenant, named.readAll, named.readOnly, [...named.foreignDomains!]]).toEqual([3, false, false, ["d0.test", "d4.test"]]);
    const none = (await actFor(account(), t(0), "absent", false, domainsOf)) as Principal;
    expect([none.tenant, none.readAll, [...none.foreignDomains!]]).toEqual([0, false, ["d3.test", "d4.test"]]);
    const all = (await actFor(account(), t(0), "absent", true, domainsOf)) as Principal;
    // Reading every tenant, it still knows the others' domains: it reads them, but writes only the primary's.
    expect([all.tenant, all.readAll, [...all.foreignDomains!]]).toEqual([0, true, ["d3.test", "d4.test"]]);
    expect(decide(all, { right: "domains.read", domain: "d" }, { d: "d3.test" }, grantRights)).toBeNull();
    expect(decide(all, { right: "domains.manage", domain: "d" }, { d: "d3.test" }, grantRights)).toEqual({ reason: "tenant", tenant: "d3.test" });
    expect(decide(all, { right: "domains.manage", domain: "d" }, { d: "d0.test" }, grantRights)).toBeNull();
    expect([readTenant(all), readTenant(named), readTenant(none)]).toEqual([undefined, 3, 0]);
    expect([seesTenant(all, 5), seesTenant(named, 3), seesTenant(named, 0), seesTenant(none, undefined)]).toEqual([true, true, false, true]);
  });

  test("a tenant key names only itself; a domain key acts for no other tenant; an unknown tenant is refused", async () => {
    expect(await actFor(account(), t(2), t(3), false, domainsOf)).toEqual({ reason: "tenant", tenant: "3" });
    expect(await actFor(account(), t(2), t(0), false, domainsOf)).toEqual({ reason: "tenant", tenant: "0" });
    expect(((await actFor(account(), t(2), t(2), false, domainsOf)) as Principal).tenant).toBe(2);
    // A tenant key never reads every tenant, even where the primary's would.
    expect(((await actFor(account(), t(2), "absent", true, domainsOf)) as Principal).readAll).toBe(false);
    expect(await actFor(domainKey("d0.test"), t(0), t(3), false, domainsOf)).toEqual({ reason: "tenant", tenant: "3" });
    expect(await actFor(account(), t(0), null, false, domainsOf)).toEqual({ reason: "tenant", tenant: "" });
  });

  test("a suspended tenant reads but neither sends nor changes; another tenant's domain is refused", async () => {
    const p = (await actFor(account(), t(0), t(4, "suspended"), false, domainsOf)) as Principal;
    expect(decide(p, { right: "mail.send" }, {}, grantRights)).toEqual({ reason: "suspended", tenant: 4 });
    expect(decide(p, { right: "suppressions.manage" }, {}, grantRights)).toEqual({ reason: "suspended", tenant: 4 });
    expect(decide(p, { right: "events.read", domain: "d" }, { d: "d4.test" }, grantRights)).toBeNull();
    expect(decide(p, { right: "events.read", domain: "d" }, { d: "d0.test" }, grantRights)).toEqual({ reason: "domain", domain: "d0.test" });
    // A domain nobody has is left to the handler's own 404.
    expect(decide(p, { right: "events.read", domain: "d" }, { d: "none.test" }, grantRights)).toBeNull();
  });

  test("on behalf: only a principal acting for a tenant other than its own; no tenant named: only a primary account key without a header", async () => {
    const mark = (p: Principal | { reason: string }) => [(p as Principal).onBehalf ?? false, (p as Principal).noTenantNamed ?? false];
    expect(mark(await actFor(account(), t(0), t(3), false, domainsOf))).toEqual([true, false]);
    expect(mark(await actFor(account(), t(0), t(0), false, domainsOf))).toEqual([false, false]);
    expect(mark(await actFor(account(), t(0), "absent", false, domainsOf))).toEqual([false, true]);
    expect(mark(await actFor(account(), t(2), t(2), false, domainsOf))).toEqual([false, false]);
    expect(mark(await actFor(account(), t(2), "absent", false, domainsOf))).toEqual([false, false]);
    expect(mark(await actFor(domainKey("d0.test"), t(0), "absent", false, domainsOf))).toEqual([false, false]);
    expect(mark(await actForUser({ ...account(), userId: "u1", membership: null }, null, t(0), t(3), domainsOf))).toEqual([true, false]);
    expect(mark(await actForUser({ ...account(), userId: "u1", membership: 3 }, t(3), t(0), "absent", domainsOf))).toEqual([false, false]);
  });

  test("the other tenants' domain set is built once per domain list and tenant", async () => {
    const list = await domainsOf();
    const once = async () => list;
    const a = (await actFor(account(), t(0), t(3), false, once)) as Principal;
    const b = (await actFor(account(), t(0), t(3), false, once)) as Principal;
    const c = (await actFor(account(), t(0), t(4), false, once)) as Principal;
    expect(a.foreignDomains).toBe(b.foreignDomains!);
    expect([...c.foreignDomains!]).toEqual(["d0.test", "d3.test"]);
    // Another list (the cache dropped after a domain changed): a new set.
    expect(((await actFor(account(), t(0), t(3), false, domainsOf)) as Principal).foreignDomains).not.toBe(a.foreignDomains!);
  });

  test("a terminated tenant's own keys and users are refused (no sign-in); the primary still reads its data", async () => {
    expect(await actFor(account(), t(4, "terminated"), "absent", false, domainsOf)).toEqual({ reason: "terminated", tenant: 4 });
    const primary = (await actFor(account(), t(0), t(4, "terminated"), false, domainsOf)) as Principal;
    expect([primary.tenant, primary.readOnly]).toEqual([4, true]);
  });

  test("console users: a membership of one tenant acts for it only; one of every tenant reads all or acts for the tenant it chose", async () => {
    const user = (membership: number | null) => ({ ...account(), userId: "u1", membership });
    const one = (await actForUser(user(3), t(3), t(0), "absent", domainsOf)) as Principal;
    expect([one.tenant, one.readAll, one.readOnly, [...one.foreignDomains!]]).toEqual([3, false, false, ["d0.test", "d4.test"]]);
    const suspended = (await actForUser(user(4), t(4, "suspended"), t(0), "absent", domainsOf)) as Principal;
    expect(decide(suspended, { right: "keys.manage" }, {}, grantRights)).toEqual({ reason: "suspended", tenant: 4 });
    expect(decide(suspended, { right: "keys.read" }, {}, grantRights)).toBeNull();
    expect(await actForUser(user(4), t(4, "terminated"), t(0), "absent", domainsOf)).toEqual({ reason: "terminated", tenant: 4 });
    // A membership of tenant 0 is the primary's alone: unlike a primary key, it chooses no other tenant.
    expect(await actForUser(user(0), t(0), t(0), t(3), domainsOf)).toEqual({ reason: "tenant", tenant: "3" });
    expect(await actForUser(user(3), t(3), t(0), t(4), domainsOf)).toEqual({ reason: "tenant", tenant: "4" });
    const all = (await actForUser(user(null), null, t(0), "absent", domainsOf)) as Principal;
    expect([all.tenant, all.readAll, [...all.foreignDomains!]]).toEqual([0, true, ["d3.test", "d4.test"]]);
    const chose = (await actForUser(user(null), null, t(0), t(4, "suspended"), domainsOf)) as Principal;
    expect([chose.tenant, chose.readAll, chose.readOnly]).toEqual([4, false, true]);
    // Tenant management (a `primary` route): a user of every tenant, not one of tenant 0.
    expect(decide(all, { right: "account.manage", primary: true }, {}, grantRights)).toBeNull();
    expect(decide((await actForUser(user(0), t(0), t(0), "absent", domainsOf)) as Principal, { right: "account.manage", primary: true }, {}, grantRights))
      .toEqual({ reason: "tenant", tenant: "0" });
    expect(decide(chose, { right: "account.manage", primary: true }, {}, grantRights)).toEqual({ reason: "tenant", tenant: "4" });
  });
});

test("the audit log's scope: every entry for the primary acting for itself, the acting tenant's for anyone else", () => {
  expect(auditTenant({ tenant: 0 })).toBeUndefined(); // the primary's account key, no header
  expect(auditTenant({ tenant: 0, membership: null })).toBeUndefined(); // a console user of every tenant
  expect(auditTenant({ tenant: 0, membership: 0 })).toBe(0); // a console user of the primary only
  expect(auditTenant({ tenant: 2, onBehalf: true })).toBe(2); // the primary acting for tenant 2
  expect(auditTenant({ tenant: 2 })).toBe(2); // tenant 2's own key
});

test("account-wide things and the installation's egress: the acting tenant's own; all of the egress for the primary only", () => {
  expect(accountTenant({ tenant: 3 })).toBe(3);
  expect(accountTenant({ tenant: 0 })).toBe(0);
  expect(accountTenant({})).toBe(0);
  // The primary's own principals (SparkPost's every-tenant reads included) see every address and pool.
  expect(egressTenant({ tenant: 0 })).toBeUndefined();
  expect(egressTenant({})).toBeUndefined();
  // Another tenant's key, or the primary acting for that tenant, sees that tenant's share.
  expect(egressTenant({ tenant: 4 })).toBe(4);
});

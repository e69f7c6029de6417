// The permission model's decisions as tables: grants of every vocabulary → rights, route
// declarations × principals, and key delegation (never a stronger key).
import { describe, expect, test } from "bun:test";
import { decide, isKnownGrant, mayManageKey, rightsOf, rightsOfGrants, ALL_RIGHTS } from "../../src/core/permissions.ts";
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

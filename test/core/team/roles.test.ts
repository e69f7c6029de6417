// Roles as rights: what each role may do through the one permission decision, and who may change whom.
import { expect, test } from "bun:test";
import { mayManageUser, rightsOfRole } from "../../../src/core/team/roles.ts";
import { RIGHTS } from "../../../src/core/grants.ts";

test("owners and admins hold every right; developers build; analysts only read", () => {
  expect(rightsOfRole("owner")).toEqual([...RIGHTS]);
  expect(rightsOfRole("admin")).toEqual([...RIGHTS]);
  const dev = new Set(rightsOfRole("developer"));
  for (const r of ["keys.manage", "webhooks.manage", "templates.manage", "domains.manage", "mail.send"] as const) expect(dev.has(r)).toBe(true);
  for (const r of ["account.manage", "suppressions.manage", "lists.manage"] as const) expect(dev.has(r)).toBe(false);
  expect(rightsOfRole("analyst").every((r) => r.endsWith(".read"))).toBe(true);
  expect(rightsOfRole("analyst")).toContain("keys.read");
});

test("owners manage anyone; admins everyone but owners and never a role; others nobody", () => {
  expect(mayManageUser("owner", { role: "owner", newRole: "analyst" })).toBe(true);
  expect(mayManageUser("admin", { role: "developer" })).toBe(true);
  expect(mayManageUser("admin", { role: "admin" })).toBe(true);
  expect(mayManageUser("admin", { role: "owner" })).toBe(false);
  expect(mayManageUser("admin", { role: "analyst", newRole: "developer" })).toBe(false);
  expect(mayManageUser("admin", { role: "analyst", newRole: "owner" })).toBe(false);
  expect(mayManageUser("developer", { role: "analyst" })).toBe(false);
  expect(mayManageUser("analyst", { role: "analyst" })).toBe(false);
});

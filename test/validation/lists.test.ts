import { describe, expect, test } from "bun:test";
import { FREE_DOMAINS } from "../../src/validation/data/free-domains.ts";
import { ROLE_LOCAL_PARTS } from "../../src/validation/data/role-locals.ts";
import { isDisposableDomain, isFreeDomain, isRoleLocalPart, toRoleKey } from "../../src/validation/lists.ts";

describe("isDisposableDomain", () => {
  test("knows listed disposable services", () => {
    expect(isDisposableDomain("mailinator.com")).toBe(true);
    expect(isDisposableDomain("guerrillamail.com")).toBe(true);
  });

  test("treats subdomains of listed and wildcard services as disposable", () => {
    expect(isDisposableDomain("anything.mailinator.com")).toBe(true);
    expect(isDisposableDomain("me.33mail.com")).toBe(true);
  });

  test("leaves ordinary and free domains alone", () => {
    expect(isDisposableDomain("example.com")).toBe(false);
    expect(isDisposableDomain("gmail.com")).toBe(false);
  });
});

describe("isFreeDomain", () => {
  test("recognises the big consumer providers", () => {
    for (const d of ["gmail.com", "outlook.com", "yahoo.co.uk", "icloud.com", "gmx.de", "proton.me"]) {
      expect(isFreeDomain(d)).toBe(true);
    }
  });

  test("does not count company domains", () => {
    expect(isFreeDomain("acme.com")).toBe(false);
  });

  test("holds no disposable domain and no duplicates", () => {
    expect(FREE_DOMAINS.filter(isDisposableDomain)).toEqual([]);
    expect(new Set(FREE_DOMAINS).size).toBe(FREE_DOMAINS.length);
    expect(FREE_DOMAINS.every((d) => d === d.toLowerCase())).toBe(true);
  });
});

describe("isRoleLocalPart", () => {
  const CASES: [string, boolean][] = [
    ["admin", true], ["Info", true], ["postmaster", true], ["abuse", true], ["no-reply", true], ["no_reply", true],
    ["do.not.reply", true], ["support+billing", true], ['"sales"', true], ["john", false], ["j.smith", false],
    ["administrator1", false],
  ];
  for (const [local, isRole] of CASES) {
    test(`says ${local} ${isRole ? "is" : "is not"} a role`, () => expect(isRoleLocalPart(local)).toBe(isRole));
  }

  test("keeps the role list in the same form the matcher compares", () => {
    expect(ROLE_LOCAL_PARTS.filter((r) => toRoleKey(r) !== r)).toEqual([]);
  });
});

import { describe, expect, test } from "bun:test";
import { POPULAR_DOMAINS, TLD_TYPOS } from "../../src/validation/data/popular-domains.ts";
import { damerauLevenshtein, suggestAddress, suggestDomain } from "../../src/validation/suggest.ts";

describe("damerauLevenshtein", () => {
  test("counts an adjacent swap as one edit", () => expect(damerauLevenshtein("gmial", "gmail")).toBe(1));
  test("counts insertions, deletions and substitutions", () => {
    expect(damerauLevenshtein("kitten", "sitting")).toBe(3);
    expect(damerauLevenshtein("", "abc")).toBe(3);
    expect(damerauLevenshtein("same", "same")).toBe(0);
  });
  test("stops early past the limit", () => expect(damerauLevenshtein("abcdefgh", "zyxwvuts", 2)).toBe(3));
});

describe("suggestDomain", () => {
  const CASES: [string, string | null][] = [
    ["gmial.com", "gmail.com"], ["gmai.com", "gmail.com"], ["gamil.com", "gmail.com"], ["gmail.co", "gmail.com"],
    ["gnail.con", "gmail.com"], ["hotmial.com", "hotmail.com"], ["hotmail.cm", "hotmail.com"], ["yaho.com", "yahoo.com"],
    ["yahoo.co.ku", "yahoo.co.uk"], ["outlok.com", "outlook.com"], ["iclod.com", "icloud.com"],
    ["googlemial.com", "googlemail.com"], ["example.con", "example.com"], ["acme.ogr", "acme.org"],
    ["comcast.nte", "comcast.net"], ["aol.con", "aol.com"],
    // Real domains and short names stay as they are.
    ["gmail.com", null], ["mail.com", null], ["email.com", null], ["gmx.net", null], ["me.com", null], ["me.co", null],
    ["aol.co", null], ["acme.com", null], ["162.com", null], ["web.de", null], ["att.com", null],
  ];
  for (const [domain, want] of CASES) {
    test(`${want ? `turns ${domain} into ${want}` : `leaves ${domain} alone`}`, () => expect(suggestDomain(domain)).toBe(want));
  }

  test("never maps a popular domain to another one", () => {
    expect(POPULAR_DOMAINS.filter((d) => suggestDomain(d) !== null)).toEqual([]);
  });

  test("only lists misspellings that are not real TLDs", () => {
    const REAL = new Set(["com", "net", "org", "co", "cm", "om", "bet", "uk", "edu", "fr", "de"]);
    expect(Object.keys(TLD_TYPOS).filter((t) => REAL.has(t))).toEqual([]);
  });
});

describe("suggestAddress", () => {
  test("keeps the local part", () => expect(suggestAddress("jane.doe", "yaho.com")).toBe("jane.doe@yahoo.com"));
  test("returns null when nothing needs fixing", () => expect(suggestAddress("jane", "yahoo.com")).toBeNull());
});

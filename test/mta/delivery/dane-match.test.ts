import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { verifyDane } from "../../../src/mta/delivery/dane-match.ts";
import type { TlsaRecord } from "../../../src/dns.ts";
import { issued, selfSigned, sha256, sha512, testCa } from "../../helpers/dane-certs.ts";

const dir = mkdtempSync(join(tmpdir(), "postern-dane-certs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ca = testCa(dir, "ca");
const other = testCa(dir, "other");
const leaf = issued(dir, "leaf", "ca", "mx.example.test");
const ee = selfSigned(dir, "ee", "not-the-mx.invalid");
const NOW = Date.now();
const rec = (usage: number, selector: number, matchingType: number, data: Buffer): TlsaRecord => ({ usage, selector, matchingType, data });

describe("DANE-EE(3): the server's own certificate or key, whatever its name", () => {
  test("SPKI SHA-256, SPKI SHA-512, certificate SHA-256 and the full certificate all match", () => {
    for (const r of [rec(3, 1, 1, sha256(ee.spki)), rec(3, 1, 2, sha512(ee.spki)), rec(3, 0, 1, sha256(ee.der)), rec(3, 0, 0, ee.der), rec(3, 1, 0, ee.spki)]) {
      expect(verifyDane([ee.der], [r], ["mx.example.test"], NOW)).toEqual({ ok: true, usage: 3 });
    }
  });
  test("a digest of another key does not match", () => {
    const v = verifyDane([ee.der], [rec(3, 1, 1, sha256(leaf.spki))], ["mx.example.test"], NOW);
    expect(v.ok).toBe(false);
  });
  test("dates are not checked (RFC 7672 §3.1.1): a year from now it still matches", () => {
    expect(verifyDane([ee.der], [rec(3, 1, 1, sha256(ee.spki))], ["x"], NOW + 365 * 86_400_000).ok).toBe(true);
  });
});

describe("DANE-TA(2): the issuing CA, with the name checked", () => {
  test("the CA's SPKI digest matches a chain that carries it, for the MX host's name", () => {
    expect(verifyDane([leaf.der, ca.der], [rec(2, 1, 1, sha256(ca.spki))], ["mx.example.test"], NOW)).toEqual({ ok: true, usage: 2 });
  });
  test("the CA's full key matches even when the server does not send the CA certificate", () => {
    expect(verifyDane([leaf.der], [rec(2, 1, 0, ca.spki)], ["mx.example.test"], NOW)).toEqual({ ok: true, usage: 2 });
  });
  test("a certificate for another name fails, and the reason says so", () => {
    const v = verifyDane([leaf.der, ca.der], [rec(2, 1, 1, sha256(ca.spki))], ["mx.other.test"], NOW);
    expect(v).toEqual({ ok: false, reason: expect.stringContaining("names neither") });
  });
  test("the TLSA base domain is the second accepted name", () => {
    expect(verifyDane([leaf.der, ca.der], [rec(2, 1, 1, sha256(ca.spki))], ["alias.other.test", "mx.example.test"], NOW).ok).toBe(true);
  });
  test("another CA's digest, or a leaf that the named CA did not issue, fails", () => {
    expect(verifyDane([leaf.der, ca.der], [rec(2, 1, 1, sha256(other.spki))], ["mx.example.test"], NOW).ok).toBe(false);
    expect(verifyDane([ee.der, ca.der], [rec(2, 1, 1, sha256(ca.spki))], ["not-the-mx.invalid"], NOW).ok).toBe(false);
  });
  test("an expired leaf fails under DANE-TA", () => {
    expect(verifyDane([leaf.der, ca.der], [rec(2, 1, 1, sha256(ca.spki))], ["mx.example.test"], NOW + 365 * 86_400_000).ok).toBe(false);
  });
  test("a DANE-TA digest of the leaf itself is not a trust anchor", () => {
    expect(verifyDane([leaf.der, ca.der], [rec(2, 1, 1, sha256(leaf.spki))], ["mx.example.test"], NOW).ok).toBe(false);
  });
});

test("no certificate at all fails", () => {
  expect(verifyDane([], [rec(3, 1, 1, sha256(ee.spki))], ["x"], NOW).ok).toBe(false);
});

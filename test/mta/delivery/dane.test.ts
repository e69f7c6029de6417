import { describe, expect, test } from "bun:test";
import { hostTlsPolicy, usableTlsa } from "../../../src/mta/delivery/dane.ts";
import type { DaneDnsResult } from "../../../src/dns.ts";

const r = (usage: number, selector: number, matchingType: number) => ({ usage, selector, matchingType, data: Buffer.alloc(32, 1) });
const secure = (records = [r(3, 1, 1)]): DaneDnsResult => ({ status: "secure", records, baseDomain: "mx.example.test" });

describe("the TLS policy of one MX host (RFC 7672 §2.2)", () => {
  test("a secure host with usable TLSA records: DANE, over MTA-STS too", () => {
    for (const sts of ["none", "enforce"] as const) {
      expect(hostTlsPolicy({ host: "MX.example.test", sts, dane: secure() }))
        .toEqual({ policy: "dane", tls: "dane", records: [r(3, 1, 1)], names: ["mx.example.test"] });
    }
  });
  test("a bogus or failed TLSA look-up defers, naming DANE, and never falls back", () => {
    for (const status of ["bogus", "failed"] as const) {
      const p = hostTlsPolicy({ host: "mx.example.test", sts: "none", dane: { status, reason: "SERVFAIL" } });
      expect(p).toEqual({ policy: "dane", defer: expect.stringMatching(/^DANE: .*mx\.example\.test/) });
    }
  });
  test("an insecure host: MTA-STS when it enforces, else opportunistic", () => {
    const insecure: DaneDnsResult = { status: "insecure", reason: "unsigned" };
    expect(hostTlsPolicy({ host: "mx", sts: "enforce", dane: insecure })).toEqual({ policy: "mta-sts", tls: "require" });
    expect(hostTlsPolicy({ host: "mx", sts: "testing", dane: insecure })).toEqual({ policy: "opportunistic", tls: "opportunistic" });
  });
  test("DANE not in force (no look-up): as today", () => {
    expect(hostTlsPolicy({ host: "mx", sts: "none", dane: null })).toEqual({ policy: "opportunistic", tls: "opportunistic" });
  });
  test("only unusable records (PKIX-TA/EE, unknown selector or matching type): as if none were published", () => {
    const unusable = [r(0, 1, 1), r(1, 0, 1), r(3, 2, 1), r(2, 1, 3), r(4, 1, 1)];
    expect(usableTlsa(unusable)).toEqual([]);
    expect(hostTlsPolicy({ host: "mx", sts: "none", dane: secure(unusable) })).toEqual({ policy: "opportunistic", tls: "opportunistic" });
    expect(hostTlsPolicy({ host: "mx", sts: "enforce", dane: secure([]) })).toEqual({ policy: "mta-sts", tls: "require" });
  });
  test("usable records are kept, unusable ones dropped", () => {
    expect(usableTlsa([r(0, 1, 1), r(2, 0, 0), r(3, 1, 2)])).toEqual([r(2, 0, 0), r(3, 1, 2)]);
  });
});

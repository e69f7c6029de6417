import { describe, expect, test } from "bun:test";
import { createTlsPolicy } from "../../../src/mta/delivery/tls-policy.ts";
import { createMockResolver } from "../../../src/dns.ts";

const hops = [{ host: "mx1.example.net", port: 25, isStaticRoute: false }, { host: "backup.other.net", port: 25, isStaticRoute: false }];
const policyOf = (policy: unknown) => createTlsPolicy({ resolver: createMockResolver({}), now: () => 0, fetchPolicy: async () => ({ policy }) });

describe("MTA-STS (RFC 8461)", () => {
  test("enforce keeps only MX hosts the policy names and requires verified TLS", async () => {
    const decision = await policyOf({ mode: "enforce", mx: ["*.example.net"], maxAge: 86400 }).decide("example.com", hops);
    expect(decision).toMatchObject({ hops: [hops[0]!], tls: "require" });
    expect(decision.perHost?.["mx1.example.net"]).toEqual({ policy: "mta-sts", tls: "require" });
    // The policy's lines, for TLS-RPT's policy-string (RFC 8460 §4.3).
    expect(decision.stsLines).toEqual(["version: STSv1", "mode: enforce", "mx: *.example.net", "max_age: 86400"]);
  });
  test("enforce: the same hops are matched once per policy; a policy fetched again (after its hour) is matched again", async () => {
    let clock = 0;
    let mx = ["*.example.net"];
    const policy = createTlsPolicy({ resolver: createMockResolver({}), now: () => clock, fetchPolicy: async () => ({ policy: { mode: "enforce", mx, maxAge: 86400 } }) });
    const first = await policy.decide("example.com", hops);
    expect(first.hops).toEqual([hops[0]!]);
    expect((await policy.decide("example.com", hops)).hops).toBe(first.hops);
    mx = ["*.other.net"];
    clock = 3_600_001;
    expect((await policy.decide("example.com", hops)).hops).toEqual([hops[1]!]);
  });
  test("enforce with no matching MX delivers nothing (and the queue retries)", async () => {
    const decision = await policyOf({ mode: "enforce", mx: ["mail.elsewhere.org"], maxAge: 86400 }).decide("example.com", hops);
    expect(decision.hops).toEqual([]);
    expect(decision.error).toMatch(/MTA-STS/);
  });
  test("testing and none modes use opportunistic TLS with every MX", async () => {
    for (const mode of ["testing", "none"]) {
      expect(await policyOf({ mode, mx: ["x"] }).decide("example.com", hops)).toMatchObject({ hops, tls: "opportunistic" });
    }
  });
  test("a static route is the operator's choice: no MTA-STS lookup", async () => {
    const route = [{ host: "127.0.0.1", port: 2526, isStaticRoute: true }];
    let asked = false;
    const policy = createTlsPolicy({ resolver: createMockResolver({}), now: () => 0, fetchPolicy: async () => { asked = true; return { policy: { mode: "enforce", mx: [] } }; } });
    expect(await policy.decide("example.com", route)).toEqual({ hops: route, tls: "opportunistic" });
    expect(asked).toBe(false);
  });
  test("a domain without a policy (mailauth's own discovery over the mock DNS) is opportunistic", async () => {
    const policy = createTlsPolicy({ resolver: createMockResolver({}), now: () => 0 });
    expect(await policy.decide("nopolicy.test", hops)).toMatchObject({ hops, tls: "opportunistic" });
  });
});

describe("DANE next to MTA-STS (RFC 8461 §2: DANE first)", () => {
  // The DANE facts as src/dns/dane-lookup.ts gives them (the real look-ups: test/dns/dnssec.test.ts, dane-delivery.test.ts).
  const tlsa = [{ usage: 3, selector: 1, matchingType: 1, data: Buffer.alloc(32) }];
  const withDane = (active: boolean, policy: unknown) => createTlsPolicy({ resolver: createMockResolver({}), now: () => 0, fetchPolicy: async () => ({ policy }),
    dane: { active: () => active, forHost: async (_d, host) => (host === "backup.other.net" ? { status: "secure", records: tlsa, baseDomain: host } : { status: "insecure", reason: "unsigned" }) } });
  test("a host with usable TLSA records gets DANE even where the MTA-STS policy does not list it", async () => {
    const d = await withDane(true, { mode: "enforce", mx: ["*.example.net"], maxAge: 86400 }).decide("example.com", hops);
    expect(d.hops).toEqual(hops);
    expect(d.perHost).toEqual({ "mx1.example.net": { policy: "mta-sts", tls: "require" },
      "backup.other.net": { policy: "dane", tls: "dane", records: tlsa, names: ["backup.other.net"] } });
  });
  test("DANE not in force: no look-up counts, MTA-STS as before", async () => {
    const d = await withDane(false, { mode: "enforce", mx: ["*.example.net"], maxAge: 86400 }).decide("example.com", hops);
    expect(d.hops).toEqual([hops[0]!]);
    expect(d.perHost?.["backup.other.net"]).toEqual({ policy: "mta-sts", tls: "require" });
  });
  test("DANE not in force: no host is looked up, and the same hops get the per-host record made the first time", async () => {
    let asked = 0;
    let active = false;
    const policy = createTlsPolicy({ resolver: createMockResolver({}), now: () => 0, fetchPolicy: async () => ({ policy: { mode: "testing", mx: ["x"] } }),
      dane: { active: () => active, forHost: async () => { asked++; return { status: "insecure", reason: "unsigned" } as const; } } });
    const first = await policy.decide("example.com", hops);
    expect(first).toEqual({ hops, tls: "opportunistic", perHost: { "mx1.example.net": { policy: "opportunistic", tls: "opportunistic" },
      "backup.other.net": { policy: "opportunistic", tls: "opportunistic" } } });
    expect((await policy.decide("example.com", hops)).perHost).toBe(first.perHost!);
    expect(asked).toBe(0);
    active = true; // the probe passed: each host is looked up again from now on
    expect((await policy.decide("example.com", hops)).perHost).toEqual(first.perHost!);
    expect(asked).toBe(2);
  });
});

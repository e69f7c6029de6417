import { describe, expect, test } from "bun:test";
import { createTlsPolicy } from "../../../src/mta/delivery/tls-policy.ts";
import { createMockResolver } from "../../../src/dns.ts";

const hops = [{ host: "mx1.example.net", port: 25, isStaticRoute: false }, { host: "backup.other.net", port: 25, isStaticRoute: false }];
const policyOf = (policy: unknown) => createTlsPolicy({ resolver: createMockResolver({}), now: () => 0, fetchPolicy: async () => ({ policy }) });

describe("MTA-STS (RFC 8461)", () => {
  test("enforce keeps only MX hosts the policy names and requires verified TLS", async () => {
    const decision = await policyOf({ mode: "enforce", mx: ["*.example.net"], maxAge: 86400 }).decide("example.com", hops);
    expect(decision).toEqual({ hops: [hops[0]!], tls: "require" });
  });
  test("enforce with no matching MX delivers nothing (and the queue retries)", async () => {
    const decision = await policyOf({ mode: "enforce", mx: ["mail.elsewhere.org"], maxAge: 86400 }).decide("example.com", hops);
    expect(decision.hops).toEqual([]);
    expect(decision.error).toMatch(/MTA-STS/);
  });
  test("testing and none modes use opportunistic TLS with every MX", async () => {
    for (const mode of ["testing", "none"]) {
      expect(await policyOf({ mode, mx: ["x"] }).decide("example.com", hops)).toEqual({ hops, tls: "opportunistic" });
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
    expect(await policy.decide("nopolicy.test", hops)).toEqual({ hops, tls: "opportunistic" });
  });
});

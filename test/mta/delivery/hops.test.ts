import { describe, expect, test } from "bun:test";
import { resolveNextHops } from "../../../src/mta/delivery/hops.ts";
import { createMockResolver } from "../../../src/dns.ts";

const resolver = createMockResolver({
  "multi.test": { mx: [{ exchange: "mx2.multi.test", priority: 20 }, { exchange: "mx1.multi.test.", priority: 10 }] },
  "nullmx.test": { mx: [{ exchange: ".", priority: 0 }] },
  "bare.test": { a: ["192.0.2.10"] },
  "empty.test": { txt: [["v=spf1 -all"]] },
});
const hops = (domain: string, routes: Record<string, string> = {}) => resolveNextHops(domain, { resolver, routes });

describe("next hops", () => {
  test("MX records in order of preference, trailing dots removed, port 25", async () => {
    expect(await hops("multi.test")).toEqual({ hops: [
      { host: "mx1.multi.test", port: 25, isStaticRoute: false }, { host: "mx2.multi.test", port: 25, isStaticRoute: false }] });
  });
  test("a static route for the exact domain wins over MX, then the * smarthost", async () => {
    expect(await hops("multi.test", { "multi.test": "127.0.0.1:2526", "*": "relay.test:587" })).toEqual({ hops: [{ host: "127.0.0.1", port: 2526, isStaticRoute: true }] });
    expect(await hops("other.test", { "*": "relay.test:587" })).toEqual({ hops: [{ host: "relay.test", port: 587, isStaticRoute: true }] });
  });
  test("no MX falls back to the domain's own address (implicit MX)", async () => {
    expect(await hops("bare.test")).toEqual({ hops: [{ host: "bare.test", port: 25, isStaticRoute: false }] });
  });
  test("a null MX fails permanently", async () => {
    expect(await hops("nullmx.test")).toMatchObject({ error: { permanent: true, enhancedCode: "5.1.10" } });
  });
  test("a domain with neither MX nor address fails permanently", async () => {
    expect(await hops("empty.test")).toMatchObject({ error: { permanent: true } });
    expect(await hops("nxdomain.test")).toMatchObject({ error: { permanent: true } });
  });
  test("a DNS failure is temporary", async () => {
    const failing = { ...resolver, mx: async () => { throw Object.assign(new Error("timeout"), { code: "ETIMEOUT" }); } };
    expect(await resolveNextHops("multi.test", { resolver: failing, routes: {} })).toMatchObject({ error: { permanent: false } });
  });
});

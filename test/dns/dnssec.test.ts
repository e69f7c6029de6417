// The DNS client's DNSSEC view (DO set, AD read) against real resolvers: the signed chain of
// dane-world.ts behind a validating unbound and one that does not validate.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { lookupSecure, probeDnssec } from "../../src/dns/dnssec.ts";
import { exchange } from "../../src/dns/wire.ts";
import { parseServer } from "../../src/dns/servers.ts";
import { startDaneWorld, type DaneWorld } from "../helpers/dane-world.ts";

let world: DaneWorld;
const TLSA = `3 1 1 ${"ab".repeat(32)}`;
beforeAll(async () => {
  world = await startDaneWorld([{ label: "ee", address: "127.0.0.1", tlsa: TLSA }, { label: "bogus", address: "127.0.0.1", tlsa: TLSA },
    { label: "none", address: "127.0.0.1" }, { label: "slow", address: "127.0.0.1" }], "127.0.0.1");
}, 60_000);
afterAll(async () => { await world?.stop(); });
const on = (server: string) => ({ servers: [parseServer(server)], timeoutMs: 2000 });

describe("lookupSecure through a validating resolver", () => {
  test("signed answers are secure, unsigned insecure, a broken signature bogus, silence failed", async () => {
    const v = on(world.validating);
    expect((await lookupSecure(v, "ee.dane.test", "MX")).status).toBe("secure");
    expect((await lookupSecure(v, "plain.test", "MX")).status).toBe("insecure");
    expect((await lookupSecure(v, "_25._tcp.mx-bogus.dane.test", "TLSA")).status).toBe("bogus");
    expect((await lookupSecure(v, "_25._tcp.mx-slow.dane.test", "TLSA")).status).toBe("failed");
  }, 20_000);
  test("a proven absence (no TLSA at a signed name) is secure and empty", async () => {
    expect(await lookupSecure(on(world.validating), "_25._tcp.mx-none.dane.test", "TLSA")).toMatchObject({ status: "secure", answers: [] });
  });
  test("without DO the resolver sets no AD: the bit is asked for, not assumed", async () => {
    const server = parseServer(world.validating);
    expect((await exchange(server, "ee.dane.test", "MX", 2000, true)).ad).toBe(true);
    expect((await exchange(server, "ee.dane.test", "MX", 2000, false)).ad).toBe(false);
  });
});

describe("the resolver probe", () => {
  test("a validating resolver passes: the root DNSKEY has AD and the broken name is refused", async () => {
    expect(await probeDnssec(on(world.validating), "broken.test")).toEqual({ state: "on", reason: expect.stringContaining("SERVFAIL") });
  });
  test("a resolver that does not validate fails, saying why", async () => {
    expect(await probeDnssec(on(world.plain), "broken.test")).toEqual({ state: "off", reason: expect.stringContaining("without AD") });
    expect((await lookupSecure(on(world.plain), "ee.dane.test", "MX")).status).toBe("insecure");
  });
  test("a broken name that answers fails the probe even with AD on the root", async () => {
    expect(await probeDnssec(on(world.validating), "ee.dane.test")).toEqual({ state: "off", reason: expect.stringContaining("does not reject bogus") });
  });
  test("no answer at all: off", async () => {
    expect((await probeDnssec({ servers: [{ host: "127.0.0.1", port: 9 }], timeoutMs: 500 }, "broken.test")).state).toBe("off");
  });
});

// The DANE facts of MX hosts (src/dns/dane-lookup.ts) through the signed chain of dane-world.ts
// behind a validating unbound, each question counted as it goes on the wire.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createDaneLookup } from "../../src/dns/dane-lookup.ts";
import { exchange } from "../../src/dns/wire.ts";
import { parseServer } from "../../src/dns/servers.ts";
import { startDaneWorld, type DaneWorld } from "../helpers/dane-world.ts";

let world: DaneWorld;
const TLSA = `3 1 1 ${"ab".repeat(32)}`;
beforeAll(async () => {
  world = await startDaneWorld([{ label: "ee", address: "127.0.0.1", tlsa: TLSA }, { label: "bogus", address: "127.0.0.1", tlsa: TLSA },
    { label: "none", address: "127.0.0.1" }], "127.0.0.1");
}, 60_000);
afterAll(async () => { await world?.stop(); });

/** A look-up on the validating resolver that writes down every question it sends. */
function counted() {
  const asked: string[] = [];
  const ex: typeof exchange = (server, name, type, ...rest) => { asked.push(`${type} ${name}`); return exchange(server, name, type, ...rest); };
  return { asked, dane: createDaneLookup({ servers: [parseServer(world.validating)], timeoutMs: 2000, exchange: ex, now: () => Date.now() }) };
}

describe("the DANE look-up of an MX host", () => {
  test("reads its TLSA records; unsigned and bogus answers say so", async () => {
    const { dane } = counted();
    const r = await dane.forHost("ee.dane.test", "mx-ee.dane.test", 25);
    expect(r).toEqual({ status: "secure", baseDomain: "mx-ee.dane.test", records: [{ usage: 3, selector: 1, matchingType: 1, data: Buffer.alloc(32, 0xab) }] });
    expect((await dane.forHost("plain.test", "mx.plain.test", 25)).status).toBe("insecure");
    expect((await dane.forHost("bogus.dane.test", "mx-bogus.dane.test", 25)).status).toBe("bogus");
  });
  test("the domain's MX record set is asked once for all its hosts, looked up together or one after another", async () => {
    const { asked, dane } = counted();
    const [ee, none] = await Promise.all([dane.forHost("ee.dane.test", "mx-ee.dane.test", 25), dane.forHost("ee.dane.test", "mx-none.dane.test", 25)]);
    expect(ee.status).toBe("secure");
    expect(none).toEqual({ status: "secure", baseDomain: "mx-none.dane.test", records: [] });
    expect(await dane.forHost("ee.dane.test", "mx-bogus.dane.test", 25)).toMatchObject({ status: "bogus" });
    expect(asked.filter((q) => q === "MX ee.dane.test")).toHaveLength(1);
    // Each host's own questions are still asked: its addresses and its TLSA records.
    for (const h of ["mx-ee", "mx-none", "mx-bogus"]) expect(asked).toContain(`TLSA _25._tcp.${h}.dane.test`);
  });
  test("a host that is the MX of several domains is asked about once for all of them", async () => {
    const { asked, dane } = counted();
    for (const domain of ["ee.dane.test", "none.dane.test", "bogus.dane.test"]) expect((await dane.forHost(domain, "mx-ee.dane.test", 25)).status).toBe("secure");
    expect(asked.filter((q) => q.endsWith("mx-ee.dane.test"))).toEqual(["A mx-ee.dane.test", "AAAA mx-ee.dane.test", "TLSA _25._tcp.mx-ee.dane.test"]);
    // Each domain's own MX record set is still asked, once.
    expect(asked.filter((q) => q.startsWith("MX ")).sort()).toEqual(["MX bogus.dane.test", "MX ee.dane.test", "MX none.dane.test"]);
  });
  test("a bogus answer is not kept: the next look-up asks again", async () => {
    const { asked, dane } = counted();
    for (let i = 0; i < 2; i++) expect((await dane.forHost("bogus.dane.test", "mx-bogus.dane.test", 25)).status).toBe("bogus");
    expect(asked.filter((q) => q === "TLSA _25._tcp.mx-bogus.dane.test")).toHaveLength(2);
    expect(asked.filter((q) => q === "MX bogus.dane.test")).toHaveLength(1);
  });
  test("a look-up that throws (an unreadable TLSA answer) fails its callers, is not kept, and leaves no rejection unhandled", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on("unhandledRejection", onUnhandled);
    try {
      let asked = 0;
      // The real wire for everything but this host's TLSA question, answered with a record without its data.
      const ex: typeof exchange = async (server, name, type, ...rest) => {
        if (type !== "TLSA" || name !== "_25._tcp.mx-ee.dane.test") return exchange(server, name, type, ...rest);
        asked++;
        return { rcode: "NOERROR", ad: true, ttl: 5, via: "udp", answers: [{ type: "TLSA", name, data: {} } as never] };
      };
      const dane = createDaneLookup({ servers: [parseServer(world.validating)], timeoutMs: 2000, exchange: ex, now: () => Date.now() });
      const both = await Promise.allSettled([dane.forHost("ee.dane.test", "mx-ee.dane.test", 25), dane.forHost("none.dane.test", "mx-ee.dane.test", 25)]);
      expect(both.map((r) => r.status)).toEqual(["rejected", "rejected"]);
      await expect(dane.forHost("ee.dane.test", "mx-ee.dane.test", 25)).rejects.toThrow();
      expect(asked).toBe(2);
      await Bun.sleep(20);
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
  test("an unsigned MX record set ends the walk for every host, asked once", async () => {
    const { asked, dane } = counted();
    const out = await Promise.all(["mx.plain.test", "other.plain.test"].map((h) => dane.forHost("plain.test", h, 25)));
    expect(out).toEqual([0, 1].map(() => ({ status: "insecure", reason: "the MX records of plain.test are not signed" })));
    expect(asked).toEqual(["MX plain.test"]);
  });
});

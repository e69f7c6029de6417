// The shared resolver against a real DNS server (dnsmasq): a multi-string TXT record is ONE
// record whose strings join to the published value, large answers come over TCP, "no such name"
// and "no such record" keep Node's codes, and answers are cached within their TTL.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createSystemResolver, toMailauthResolver, type Resolver } from "../../src/dns.ts";
import { createWireResolver } from "../../src/dns/resolver.ts";
import { exchange } from "../../src/dns/wire.ts";
import { parseServer } from "../../src/dns/servers.ts";
import { splitTxt, startDnsmasq, type DnsmasqServer } from "../helpers/dnsmasq.ts";
import { freePort } from "../helpers/free-port.ts";

const LONG = `v=DKIM1; k=rsa; p=${"A".repeat(392)}IDAQAB`;
const BIG = Array.from({ length: 24 }, (_, i) => ({ type: "TXT" as const, name: "big.test", strings: [`${i}-${"x".repeat(240)}`] }));
let dns: DnsmasqServer;
let resolver: Resolver;

beforeAll(async () => {
  dns = await startDnsmasq([
    { type: "TXT", name: "multi.test", strings: splitTxt(LONG) },
    { type: "TXT", name: "multi.test", strings: ["v=spf1 -all"] },
    { type: "MX", name: "mail.test", value: "mx1.mail.test", priority: 5 },
    { type: "A", name: "mx1.mail.test", value: "192.0.2.7" },
    { type: "CNAME", name: "alias.test", value: "mx1.mail.test" },
    ...BIG,
  ]);
  resolver = createSystemResolver([dns.server]);
});
afterAll(() => dns.stop());

describe("wire resolver", () => {
  test("a TXT record of several strings is one record, its strings in order", async () => {
    const records = await resolver.txt("multi.test");
    expect(records).toHaveLength(2);
    const dkim = records.find((r) => r.length > 1)!;
    expect(dkim.length).toBe(splitTxt(LONG).length);
    expect(dkim.join("")).toBe(LONG);
    expect(records.find((r) => r.length === 1)).toEqual(["v=spf1 -all"]);
  });

  test("MX, A and CNAME as Node shapes them", async () => {
    expect(await resolver.mx("mail.test")).toEqual([{ exchange: "mx1.mail.test", priority: 5 }]);
    expect(await resolver.a("mx1.mail.test")).toEqual(["192.0.2.7"]);
    expect(await resolver.cname("alias.test")).toEqual(["mx1.mail.test"]);
    expect(await resolver.a("alias.test")).toEqual(["192.0.2.7"]); // through the CNAME chain
  });

  test("a missing name is ENOTFOUND, a name without that record ENODATA", async () => {
    expect(await resolver.txt("nothing.test").catch((e) => e.code)).toBe("ENOTFOUND");
    expect(await resolver.mx("multi.test").catch((e) => e.code)).toBe("ENODATA");
  });

  test("an answer too large for UDP is fetched again over TCP, whole", async () => {
    const direct = await exchange(parseServer(dns.server), "big.test", "TXT", 2000);
    expect([direct.via, direct.answers.length]).toEqual(["tcp", BIG.length]);
    expect((await resolver.txt("big.test")).map((r) => r.join("")).sort()).toEqual(BIG.map((b) => b.strings[0]!).sort());
  });

  test("answers are reused within their TTL, asked again after it", async () => {
    let clock = 1_000_000;
    let asked = 0;
    const r = createWireResolver({ servers: [parseServer(dns.server)], now: () => clock,
      exchange: (...a) => { asked++; return exchange(...a); } });
    await Promise.all([r.mx("mail.test"), r.mx("mail.test")]);
    await r.mx("mail.test");
    expect(asked).toBe(1);
    clock += 61_000; // dnsmasq serves its local records with TTL 60
    await r.mx("mail.test");
    expect(asked).toBe(2);
  });

  test("an unreachable server fails over to the next one", async () => {
    const r = createSystemResolver(["127.0.0.1:9", dns.server], { timeoutMs: 300 });
    expect(await r.a("mx1.mail.test")).toEqual(["192.0.2.7"]);
  });

  test("a server that is not listening is known at once, not after the timeout", async () => {
    const r = createSystemResolver([`127.0.0.1:${await freePort()}`], { timeoutMs: 5000 });
    const started = Date.now();
    expect(await r.a("mx1.mail.test").catch((e: { code?: string }) => e.code)).toBe("ECONNREFUSED");
    expect(Date.now() - started).toBeLessThan(2000);
  });

  test("mailauth's adapter hands TXT records over whole", async () => {
    const records = (await toMailauthResolver(resolver)("multi.test", "TXT")) as string[][];
    expect(records.map((r) => r.join(""))).toContain(LONG);
  });
});

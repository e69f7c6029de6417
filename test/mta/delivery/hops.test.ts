import { afterAll, describe, expect, test } from "bun:test";
import { resolveNextHops } from "../../../src/mta/delivery/hops.ts";
import { createMockResolver, createSystemResolver } from "../../../src/dns.ts";
import { startDnsmasq, type DnsmasqServer } from "../../helpers/dnsmasq.ts";
import { makeTestApp, type TestApp } from "../../helpers/app.ts";
import { startSink, type Sink } from "../../helpers/smtp-sink.ts";
import type { Principal } from "../../../src/core/model.ts";

const resolver = createMockResolver({
  "multi.test": { mx: [{ exchange: "mx2.multi.test", priority: 20 }, { exchange: "mx1.multi.test.", priority: 10 }] },
  "mx1.multi.test": { a: ["192.0.2.1"], aaaa: ["2001:db8::1"] },
  "mx2.multi.test": { a: ["192.0.2.2"] },
  "dangling.test": { mx: [{ exchange: "nowhere.dangling.test", priority: 10 }] },
  "half.test": { mx: [{ exchange: "gone.half.test", priority: 5 }, { exchange: "mx.half.test", priority: 10 }] },
  "mx.half.test": { a: ["192.0.2.3"] },
  "nullmx.test": { mx: [{ exchange: ".", priority: 0 }] },
  "bare.test": { a: ["192.0.2.10"] },
  "empty.test": { txt: [["v=spf1 -all"]] },
});
const hops = (domain: string, routes: Record<string, string> = {}) => resolveNextHops(domain, { resolver, routes });

describe("next hops", () => {
  test("MX records in order of preference, trailing dots removed, port 25, each host's addresses IPv4 first", async () => {
    expect(await hops("multi.test")).toEqual({ hops: [
      { host: "mx1.multi.test", address: "192.0.2.1", port: 25, isStaticRoute: false },
      { host: "mx1.multi.test", address: "2001:db8::1", port: 25, isStaticRoute: false },
      { host: "mx2.multi.test", address: "192.0.2.2", port: 25, isStaticRoute: false }] });
  });
  test("an MX host without an address is skipped; when none has one the mail waits (temporary)", async () => {
    expect(await hops("half.test")).toEqual({ hops: [{ host: "mx.half.test", address: "192.0.2.3", port: 25, isStaticRoute: false }] });
    expect(await hops("dangling.test")).toMatchObject({ error: { permanent: false, enhancedCode: "4.4.3" } });
  });
  test("a static route for the exact domain wins over MX, then the * smarthost", async () => {
    expect(await hops("multi.test", { "multi.test": "127.0.0.1:2526", "*": "relay.test:587" })).toEqual({ hops: [{ host: "127.0.0.1", port: 2526, isStaticRoute: true }] });
    expect(await hops("other.test", { "*": "relay.test:587" })).toEqual({ hops: [{ host: "relay.test", port: 587, isStaticRoute: true }] });
  });
  test("no MX falls back to the domain's own address (implicit MX)", async () => {
    expect(await hops("bare.test")).toEqual({ hops: [{ host: "bare.test", address: "192.0.2.10", port: 25, isStaticRoute: false }] });
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

describe("MX hosts resolved through [mta] dns_servers (a real dnsmasq)", () => {
  let dns: DnsmasqServer | null = null;
  let sink: Sink | null = null;
  let t: TestApp | null = null;
  afterAll(async () => { await t?.close(); await sink?.close(); await dns?.stop(); });

  test("a domain whose MX host only the configured DNS knows is delivered to that host's address, port 25", async () => {
    // A loopback address of its own, so port 25 is free whatever else runs on this machine.
    const address = `127.${29 + Math.floor(Math.random() * 200)}.${1 + Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
    dns = await startDnsmasq([
      { type: "MX", name: "far.test", value: "aspmx.far-mx.test", priority: 10 },
      { type: "A", name: "aspmx.far-mx.test", value: address },
    ]);
    const resolver = createSystemResolver([dns.server]);
    expect(await resolveNextHops("far.test", { resolver, routes: {} })).toEqual({ hops: [{ host: "aspmx.far-mx.test", address, port: 25, isStaticRoute: false }] });
    sink = await startSink({ host: address, port: 25 });
    t = await makeTestApp({ resolver });
    const principal = (await t.app.access.authenticate(t.domainKey)) as Principal;
    await t.app.mta.scheduler.start();
    await t.app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "a@example.com" },
      envelopes: [{ to: [{ email: "someone@far.test" }], subject: "s", text: "t" }] });
    const [msg] = await sink.waitFor(1, 15_000);
    expect(msg!.to).toEqual(["someone@far.test"]);
    await t.app.mta.scheduler.drain();
    const delivered = (await t.app.store.zone("us").searchEvents({ recipient: "someone@far.test", types: ["delivered"], limit: 1 }))[0];
    expect(delivered).toMatchObject({ mx: "aspmx.far-mx.test" });
  }, 30_000);
});

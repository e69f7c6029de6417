// "This server's addresses" and the egress addresses of a run, over a real dnsmasq.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createSystemResolver } from "../../src/dns.ts";
import { createDoctorContext, splitProbe, type ContextDeps } from "../../src/doctor/context.ts";
import { startDnsmasq, type DnsmasqServer } from "../helpers/dnsmasq.ts";

let dns: DnsmasqServer;
beforeAll(async () => { dns = await startDnsmasq([{ type: "A", name: "mta.ctx.test", value: "192.0.2.7" }, { type: "AAAA", name: "mta.ctx.test", value: "2001:db8::7" }]); });
afterAll(async () => { await dns.stop(); });

const ctx = (over: Partial<ContextDeps>) => createDoctorContext({
  resolver: createSystemResolver([dns.server]), now: () => 0, probeTimeoutMs: 500, mtaHostname: "mta.ctx.test", port25Probe: "mx.example:25",
  publicAddresses: [], egressSources: [], publishedKeys: async () => [], httpsTracking: false,
  blocklists: { ip_zones: [], domain_zones: [], spamhaus_dqs_key: "" },
  dnssec: { mode: "off", probe: async () => ({ state: "off", reason: "not asked" }) }, ...over });

test("the machine's default source is mta.hostname's A/AAAA; configured sources are their own address", async () => {
  const c = ctx({ egressSources: [{ address: null, ehlo: "mta.ctx.test" }, { address: "192.0.2.50", ehlo: "b.ctx.test" }] });
  expect((await c.egress()).map((e) => `${e.address} ${e.ehlo}`)).toEqual(["192.0.2.7 mta.ctx.test", "2001:db8::7 mta.ctx.test", "192.0.2.50 b.ctx.test"]);
  expect([...await c.serverAddresses()].sort()).toEqual(["192.0.2.50", "192.0.2.7", "2001:db8::7"]);
});

test("[doctor] public_addresses, when set, are this server's addresses and the default source's", async () => {
  const c = ctx({ publicAddresses: ["203.0.113.5"], egressSources: [{ address: null, ehlo: "mta.ctx.test" }, { address: "192.0.2.50", ehlo: "b.ctx.test" }] });
  expect((await c.egress()).map((e) => e.address)).toEqual(["203.0.113.5", "192.0.2.50"]);
  expect([...await c.serverAddresses()]).toEqual(["203.0.113.5"]);
});

test("port25_probe: host and port, 25 by default, IPv6 in brackets", () => {
  expect(splitProbe("gmail-smtp-in.l.google.com:25")).toEqual({ host: "gmail-smtp-in.l.google.com", port: 25 });
  expect(splitProbe("mx.example")).toEqual({ host: "mx.example", port: 25 });
  expect(splitProbe("[2001:db8::1]:2525")).toEqual({ host: "2001:db8::1", port: 2525 });
});

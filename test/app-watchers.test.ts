// The composition of src/app-watchers.ts on a real app: the doctor's runs against real DNS servers
// (dnsmasq) turn into alerts and resolve them. An egress address listed on a blocklist zone fires
// one blocklist alert; the next run, against a world where the listing is gone, resolves it.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { createSystemResolver, type Resolver } from "../src/dns.ts";
import { makeTestApp, type TestApp } from "./helpers/app.ts";
import { startDnsmasq, type DnsmasqServer, type ZoneRecord } from "./helpers/dnsmasq.ts";

setDefaultTimeout(60_000);
const LISTING: ZoneRecord = { type: "A", name: "9.0.0.127.bl.test", value: "127.0.0.2" };
const WORLD: ZoneRecord[] = [{ type: "A", name: "2.0.0.127.bl.test", value: "127.0.0.2" }, { type: "A", name: "mta.w.test", value: "127.0.0.9" }];
let listed: DnsmasqServer;
let delisted: DnsmasqServer;
let current: Resolver;
let t: TestApp;

beforeAll(async () => {
  listed = await startDnsmasq([...WORLD, LISTING]);
  delisted = await startDnsmasq(WORLD);
  current = createSystemResolver([listed.server], { timeoutMs: 1000 });
  // Two real DNS servers, one before and one after the delisting; the app asks whichever is current.
  const switching = new Proxy({} as Resolver, { get: (_t, k) => (current as unknown as Record<PropertyKey, unknown>)[k] });
  t = await makeTestApp({
    domain: "w.test", resolver: switching,
    toml: `[mta.egress.ip9]\nsource_address = "127.0.0.9"\nehlo = "mta.w.test"\n[mta.pools.default]\nsources = ["ip9"]\n`
      + `[doctor]\ninterval = "0"\nport25_probe = "127.0.0.1:1"\n[blocklists]\nip_zones = ["bl.test"]\ndomain_zones = []\n`,
  });
});
afterAll(async () => {
  await t.close();
  await listed.stop();
  await delisted.stop();
});

const open = async (rule: string) => (await t.app.alerts.incidents(true)).filter((i) => i.rule === rule);

test("a listing found by the doctor fires one blocklist alert; the run after the delisting resolves it", async () => {
  await t.app.doctor.run();
  expect(await open("blocklist")).toMatchObject([{ rule: "blocklist", subject: "127.0.0.9", state: "firing" }]);
  await t.app.doctor.run();
  expect(await open("blocklist")).toHaveLength(1);
  current = createSystemResolver([delisted.server], { timeoutMs: 1000 });
  await t.app.doctor.run();
  expect(await open("blocklist")).toEqual([]);
});

test("a check turning error fires the check alert (port 25 refused)", async () => {
  expect((await open("check")).map((i) => i.subject)).toContain("port25:127.0.0.1:1");
});

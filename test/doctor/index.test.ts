// The doctor's two seams: publishedKeys(domain) reads the domain's DKIM keys (the key lifecycle
// replaces it later) and trackingHostOf(domain) names the tracking host (default email.<domain>).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createSystemResolver } from "../../src/dns.ts";
import { openSqliteStore } from "../../src/store/sqlite/index.ts";
import type { Store } from "../../src/core/store-port.ts";
import { createDoctorService, defaultTrackingHost, type DoctorWiring } from "../../src/doctor/index.ts";
import { addDomain, dkimKeysFor, MTA, startWorld } from "./fixture.ts";

let world: Awaited<ReturnType<typeof startWorld>>;
let store: Store;
beforeAll(async () => {
  const good = await dkimKeysFor("s1");
  world = await startWorld(good);
  store = await openSqliteStore(":memory:", ["us"]);
  await addDomain(store, "good.test", good);
});
afterAll(async () => { await world.stop(); await store.close(); });

const wiring = (over: Partial<DoctorWiring> = {}): DoctorWiring => ({
  config: { doctor: { interval: 0, port25_probe: "127.0.0.1:1", public_addresses: [] }, blocklists: { ip_zones: [], domain_zones: [], spamhaus_dqs_key: "" },
    mta: { bounce_domain: "", dane: "off", dnssec_broken_probe: "", dns_servers: [] }, server: { public_url: "http://127.0.0.1:8025" } },
  resolver: createSystemResolver([world.dns.server], { timeoutMs: 1000 }), now: () => Date.now(), mtaHostname: MTA,
  egressSources: [{ address: "127.0.0.5", ehlo: MTA }], listDomains: store.control.listDomains, getDomain: store.control.getDomain,
  getDkimKeys: store.control.getDkimKeys, history: store.control, ...over });

test("the DKIM check reads every key the domain holds; the tracking check asks email.<domain> by default", async () => {
  const checks = await createDoctorService(wiring()).run({ ids: ["dkim", "tracking"] });
  expect(checks.map((c) => `${c.id} ${c.subject} ${c.severity}`).sort()).toEqual(["dkim good.test ok", "tracking good.test ok"]);
  expect(Object.keys((checks.find((c) => c.id === "dkim")!.data as { selectors: object }).selectors)).toEqual(["s1", "s1e"]);
  expect(checks.find((c) => c.id === "tracking")!.data).toMatchObject({ host: "email.good.test" });
  expect(defaultTrackingHost("example.com")).toBe("email.example.com");
});

test("an injected trackingHostOf names another host; the bounce domain follows [mta] bounce_domain", async () => {
  const w = wiring({ trackingHostOf: async (d) => `links.${d}` });
  w.config = { ...w.config, mta: { ...w.config.mta, bounce_domain: "bounces.good.test" } };
  const checks = await createDoctorService(w).run({ ids: ["tracking", "bounce-mx"] });
  expect(checks.map((c) => `${c.id} ${c.subject} ${c.severity} ${(c.data as { host?: string; bounce_domain?: string }).host ?? (c.data as { bounce_domain?: string }).bounce_domain}`).sort())
    .toEqual(["bounce-mx good.test ok bounces.good.test", "tracking good.test error links.good.test"]);
});

test("an injected publishedKeys replaces the domain's DKIM keys (the key lifecycle's seam)", async () => {
  const checks = await createDoctorService(wiring({ publishedKeys: async (d) => [{ selector: "new", record: "v=DKIM1; k=rsa; p=AAAA" }].filter(() => d === "good.test") }))
    .run({ ids: ["dkim"] });
  expect(checks.map((c) => `${c.subject} ${c.severity} ${Object.keys((c.data as { selectors: object }).selectors)}`)).toEqual(["good.test error new"]);
});

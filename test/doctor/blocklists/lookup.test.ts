// Blocklist look-ups against a real dnsmasq: a Spamhaus zone asked through DQS names, a zone that
// answers every name (its RFC 5782 self-test fails), a domain zone, and a zone whose servers never
// answer (timeout: unknown, never clear).
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { createSystemResolver } from "../../../src/dns.ts";
import { createBlocklistLookup } from "../../../src/doctor/blocklists/lookup.ts";
import { startDnsmasq, type DnsmasqServer } from "../../helpers/dnsmasq.ts";
import { freePort } from "../../helpers/free-port.ts";

setDefaultTimeout(30_000);
let dns: DnsmasqServer;
beforeAll(async () => {
  dns = await startDnsmasq([
    { type: "A", name: "2.0.0.127.k3y.zen.dq.spamhaus.net", value: "127.0.0.2" },
    { type: "A", name: "9.2.0.192.k3y.zen.dq.spamhaus.net", value: "127.0.0.4" },
    { type: "A", name: "TEST.k3y.dbl.dq.spamhaus.net", value: "127.0.1.2" },
    { type: "ADDRESS", name: "all.test", value: "127.0.0.2" },
    { type: "A", name: "TEST.dom.test", value: "127.0.1.2" }, { type: "A", name: "spam.example.dom.test", value: "127.0.1.3" },
    { type: "FORWARD", name: "dead.test", value: `127.0.0.1#${await freePort()}` },
  ]);
});
afterAll(async () => { await dns.stop(); });

const lookup = (zones: { ip_zones?: string[]; domain_zones?: string[]; spamhaus_dqs_key?: string }) =>
  createBlocklistLookup(createSystemResolver([dns.server], { timeoutMs: 500, maxTtlSeconds: 0, negativeTtlSeconds: 0 }),
    { ip_zones: zones.ip_zones ?? [], domain_zones: zones.domain_zones ?? [], spamhaus_dqs_key: zones.spamhaus_dqs_key ?? "" });

test("with a DQS key, zen.spamhaus.org is asked as <key>.zen.dq.spamhaus.net and reported under its own name", async () => {
  const l = lookup({ ip_zones: ["zen.spamhaus.org"], domain_zones: ["dbl.spamhaus.org"], spamhaus_dqs_key: "k3y" });
  expect(await l.ask("192.0.2.9", "ip")).toEqual([{ subject: "192.0.2.9", kind: "ip", zone: "zen.spamhaus.org", state: "listed", answer: "127.0.0.4", cause: "" }]);
  expect((await l.ask("192.0.2.10", "ip"))[0]!.state).toBe("clear");
  expect((await l.ask("example.com", "domain"))[0]!.state).toBe("clear");
});

test("a zone answering every name fails its self-test (127.0.0.1 listed): unknown for all, never listed", async () => {
  const [e] = await lookup({ ip_zones: ["all.test"] }).ask("192.0.2.9", "ip");
  expect(e).toMatchObject({ state: "unknown", cause: expect.stringMatching(/RFC 5782 self-test: 127\.0\.0\.1 is listed/) });
});

test("a domain zone: TEST listed and INVALID not, then the host asked by its full name", async () => {
  const l = lookup({ domain_zones: ["dom.test"] });
  expect((await l.ask("spam.example", "domain"))[0]).toMatchObject({ kind: "domain", state: "listed", answer: "127.0.1.3" });
  expect((await l.ask("ham.example", "domain"))[0]!.state).toBe("clear");
});

test("a zone whose servers never answer: unknown with a timeout, not clear", async () => {
  const [e] = await lookup({ ip_zones: ["dead.test"] }).ask("192.0.2.9", "ip");
  expect(e).toMatchObject({ state: "unknown", cause: expect.stringMatching(/timeout/) });
});

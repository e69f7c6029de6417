// DNS answers as facts, over a real dnsmasq: records, a missing name or record, and a failure.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createSystemResolver } from "../../src/dns.ts";
import { addressesOf, causeText, looked } from "../../src/doctor/lookup.ts";
import { startDnsmasq, type DnsmasqServer } from "../helpers/dnsmasq.ts";
import { freePort } from "../helpers/free-port.ts";

let dns: DnsmasqServer;
beforeAll(async () => {
  dns = await startDnsmasq([{ type: "A", name: "both.look.test", value: "192.0.2.1" }, { type: "AAAA", name: "both.look.test", value: "2001:db8::1" },
    { type: "AAAA", name: "six.look.test", value: "2001:db8::2" }, { type: "FORWARD", name: "dead.test", value: `127.0.0.1#${await freePort()}` }]);
});
afterAll(async () => { await dns.stop(); });

test("records, a missing name, and a server that never answers are three different facts", async () => {
  const r = createSystemResolver([dns.server], { timeoutMs: 300 });
  expect(await looked(() => r.a("both.look.test"))).toEqual({ ok: true, records: ["192.0.2.1"] });
  expect(await looked(() => r.a("nope.look.test"))).toEqual({ ok: false, missing: true, cause: "ENOTFOUND" });
  expect(await looked(() => r.a("x.dead.test"))).toEqual({ ok: false, missing: false, cause: "ETIMEOUT" });
  expect(causeText("ETIMEOUT")).toMatch(/timeout/);
});

test("addressesOf joins A and AAAA; an IPv6-only name still resolves", async () => {
  const r = createSystemResolver([dns.server], { timeoutMs: 300 });
  expect(await addressesOf(r, "both.look.test")).toEqual({ ok: true, records: ["192.0.2.1", "2001:db8::1"] });
  expect(await addressesOf(r, "six.look.test")).toEqual({ ok: true, records: ["2001:db8::2"] });
  expect(await addressesOf(r, "nope.look.test")).toMatchObject({ ok: false, missing: true });
});

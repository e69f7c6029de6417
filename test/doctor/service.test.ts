// The doctor against a real dnsmasq holding good and broken zones, real port-25 listeners and a
// real store: every check's severity as contract §13 says, the blocklist answer rules, history
// and the change feed.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { createServer, type Server } from "node:net";
import { createSystemResolver } from "../../src/dns.ts";
import { openSqliteStore } from "../../src/store/sqlite/index.ts";
import type { Store } from "../../src/core/store-port.ts";
import { createDoctorService } from "../../src/doctor/index.ts";
import type { DoctorChange } from "../../src/doctor/service.ts";
import type { CheckResult } from "../../src/doctor/types.ts";
import { freePort } from "../helpers/free-port.ts";
import { addDomain, dkimKeysFor, EGRESS, MTA, startWorld, ZONES } from "./fixture.ts";

setDefaultTimeout(60_000);
let world: Awaited<ReturnType<typeof startWorld>>;
let store: Store;
const servers: Server[] = [];
let greeting = 0, silent = 0, closed = 0;

async function listen(onConn: (s: import("node:net").Socket) => void): Promise<number> {
  const srv = createServer(onConn);
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  servers.push(srv);
  return (srv.address() as { port: number }).port;
}

beforeAll(async () => {
  const good = await dkimKeysFor("s1");
  world = await startWorld(good);
  store = await openSqliteStore(":memory:", ["us"]);
  await addDomain(store, "good.test", good);
  await addDomain(store, "bad.test", await dkimKeysFor("s1"));
  await addDomain(store, "none.test", await dkimKeysFor("s2"));
  await addDomain(store, "news.good.test", await dkimKeysFor("s3"));
  greeting = await listen((s) => s.write("220 probe.test ESMTP ready\r\n"));
  silent = await listen(() => {});
  closed = await freePort();
});
afterAll(async () => {
  await world.stop();
  for (const s of servers) s.close();
  await store.close();
});

function doctor(probe: string, now = () => Date.now(), history: Store = store) {
  return createDoctorService({
    config: { doctor: { interval: 0, port25_probe: probe, public_addresses: [] }, blocklists: ZONES, mta: { bounce_domain: "", dane: "off", dnssec_broken_probe: "", dns_servers: [] }, server: { public_url: "http://127.0.0.1:8025" } },
    resolver: createSystemResolver([world.dns.server], { now, timeoutMs: 1000, maxTtlSeconds: 0, negativeTtlSeconds: 0 }),
    now, mtaHostname: MTA, egressSources: EGRESS, listDomains: store.control.listDomains, getDomain: store.control.getDomain,
    getDkimKeys: store.control.getDkimKeys, history: history.control, probeTimeoutMs: 1000,
  });
}
const find = (checks: CheckResult[], id: string, subject: string) => {
  const c = checks.find((x) => x.id === id && x.subject === subject);
  if (!c) throw new Error(`no ${id} ${subject} in ${checks.map((x) => `${x.id}:${x.subject}`).join(" ")}`);
  return c;
};

test("port25: a greeting is ok, a closed port an error, a listener that never greets unknown", async () => {
  const run = async (port: number) => (await doctor(`127.0.0.1:${port}`).run({ ids: ["port25"] }))[0]!;
  expect(await run(greeting)).toMatchObject({ id: "port25", subject: `127.0.0.1:${greeting}`, severity: "ok" });
  const refused = await run(closed);
  expect(refused.severity).toBe("error");
  expect(refused.fix).toMatch(/port 25/);
  expect(await run(silent)).toMatchObject({ severity: "unknown" });
  // A probe named by host is looked up through the configured DNS (mta.good.test → 127.0.0.5, where nothing listens on this port).
  expect((await doctor(`${MTA}:${closed}`).run({ ids: ["port25"] }))[0]).toMatchObject({ severity: "error", data: { target: `${MTA}:${closed}` } });
  expect((await doctor(`nothing.good.test:${greeting}`).run({ ids: ["port25"] }))[0]).toMatchObject({ severity: "unknown", summary: expect.stringMatching(/could not be looked up/) });
});

test("every check's severity over good and broken zones", async () => {
  const checks = await doctor(`127.0.0.1:${greeting}`).run();
  const sev = (id: string, subject: string) => find(checks, id, subject).severity;
  // PTR: forward-confirmed, another host's name, none.
  expect([sev("ptr", "127.0.0.5"), sev("ptr", "127.0.0.6"), sev("ptr", "127.0.0.7")]).toEqual(["ok", "error", "error"]);
  expect(find(checks, "ptr", "127.0.0.6").summary).toMatch(/other\.good\.test/);
  expect([sev("ipv6", "2001:db8::5"), sev("ipv6", "2001:db8::6")]).toEqual(["ok", "error"]);
  expect(checks.some((c) => c.id === "ipv6" && c.subject === "127.0.0.5")).toBe(false);
  // SPF evaluated per egress address, for the From and the bounce domain: one verdict per domain.
  expect(find(checks, "spf", "good.test")).toMatchObject({ severity: "ok",
    data: { from: { addresses: { "127.0.0.5": "pass", "2001:db8::6": "pass" } }, bounce: { name: "bounces.good.test", addresses: { "127.0.0.7": "pass" } } } });
  expect(find(checks, "spf", "bad.test")).toMatchObject({ severity: "error", data: { from: { addresses: { "127.0.0.5": "fail" } }, bounce: { addresses: { "127.0.0.5": "none" } } } });
  // DKIM per domain and selector: our keys, another key under s1 and none under s1e.
  expect(find(checks, "dkim", "good.test")).toMatchObject({ severity: "ok", data: { selectors: { s1: { state: "ok" }, s1e: { state: "ok" } } } });
  expect(find(checks, "dkim", "bad.test")).toMatchObject({ severity: "error", summary: expect.stringMatching(/different key/),
    data: { selectors: { s1: { state: "error" }, s1e: { state: "error", why: "no record" } } } });
  // DMARC: reject ok, none warn, absent error.
  expect([sev("dmarc", "good.test"), sev("dmarc", "none.test"), sev("dmarc", "bad.test")]).toEqual(["ok", "warn", "error"]);
  // A subdomain without a record of its own gets its organizational domain's policy, as receivers apply it.
  expect(find(checks, "dmarc", "news.good.test")).toMatchObject({ severity: "ok", data: { inherited: true, record_domain: "good.test" } });
  expect([sev("bounce-mx", "good.test"), sev("bounce-mx", "bad.test")]).toEqual(["ok", "error"]);
  expect(find(checks, "bounce-mx", "bad.test").data).toMatchObject({ bounce_domain: "bounces.bad.test" });
  expect([sev("tracking", "good.test"), sev("tracking", "bad.test"), sev("tracking", "none.test")]).toEqual(["ok", "error", "error"]);
  expect(find(checks, "tracking", "bad.test").data).toMatchObject({ host: "email.bad.test", addresses: ["192.0.2.9"] });
  // Blocklists: per address and per domain (its sending, bounce and tracking names).
  expect([sev("blocklist", "127.0.0.6"), sev("blocklist", "bad.test")]).toEqual(["error", "error"]);
  expect(sev("blocklist", "127.0.0.5")).toBe("unknown"); // nortest/refuse/sf zones cannot answer
  expect(new Set(checks.map((c) => `${c.id} ${c.subject}`)).size).toBe(checks.length);
  for (const c of checks) if (c.severity !== "ok") expect(c.fix.length).toBeGreaterThan(10);
});

test("blocklists: listed, clear, a zone without RFC 5782 entries, a refusing zone and SERVFAIL are told apart", async () => {
  const items = await doctor(`127.0.0.1:${greeting}`).blocklists(true);
  const item = (subject: string, zone: string) => items.find((i) => i.subject === subject && i.zone === zone)!;
  expect(item("127.0.0.6", "bl.test")).toMatchObject({ kind: "ip", state: "listed", answer: "127.0.0.3" });
  expect(item("127.0.0.5", "bl.test")).toMatchObject({ state: "clear", answer: "", cause: "" });
  expect(item("2001:db8::5", "bl.test").state).toBe("clear");
  // nortest.test lists .5 but fails its self-test: unknown, never listed.
  expect(item("127.0.0.5", "nortest.test")).toMatchObject({ state: "unknown", cause: expect.stringMatching(/RFC 5782/) });
  expect(item("127.0.0.5", "refuse.test")).toMatchObject({ state: "unknown", cause: expect.stringMatching(/127\.255\.255\.254/) });
  expect(item("127.0.0.5", "sf.test")).toMatchObject({ state: "unknown", cause: expect.stringMatching(/SERVFAIL/) });
  expect(item("bad.test", "dbl.test")).toMatchObject({ kind: "domain", state: "listed", answer: "127.0.1.2" });
  expect(item("bounces.bad.test", "dbl.test").state).toBe("clear");
  expect(item("email.good.test", "dbl.test").state).toBe("clear");
  expect(items.every((i) => !!Date.parse(i.first_seen) && !!Date.parse(i.last_seen))).toBe(true);
});

test("history and the change feed: a first listing is told once, first_seen holds while a state lasts, a severity change is told", async () => {
  let t = 1_900_000_000_000;
  const history = await openSqliteStore(":memory:", ["us"]);
  const flip = await listen((s) => s.write("220 flip.test\r\n"));
  const d = doctor(`127.0.0.1:${flip}`, () => t, history);
  const heard: DoctorChange[] = [];
  d.subscribe({ doctorChanged: (c) => { heard.push(c); } });
  await d.run({ ids: ["blocklist", "port25"] });
  const listings = heard.filter((c) => c.kind === "blocklist").map((c) => `${c.subject} ${"zone" in c ? c.zone : ""} ${c.from}->${c.to}`).sort();
  expect(listings).toEqual(["127.0.0.6 bl.test unknown->listed", "bad.test dbl.test unknown->listed"]);
  expect(heard.find((c) => c.subject === "bad.test")).toMatchObject({ entryKind: "domain", domain: "bad.test", answer: "127.0.1.2", at: t });
  heard.length = 0;
  t += 60_000;
  servers.pop()!.close(); // the listener goes away: port 25 turns from ok to error
  await d.run({ ids: ["blocklist", "port25"] });
  expect(heard).toEqual([{ kind: "check", id: "port25", subject: `127.0.0.1:${flip}`, from: "ok", to: "error", at: t }]);
  const listed = (await d.blocklists(false)).find((i) => i.subject === "127.0.0.6" && i.zone === "bl.test")!;
  expect([Date.parse(listed.first_seen), Date.parse(listed.last_seen)]).toEqual([t - 60_000, t]);
  await history.close();
});

test("two runs at once record one listing once; the schedule runs at start and then every interval until stopped", async () => {
  const history = await openSqliteStore(":memory:", ["us"]);
  const heard: DoctorChange[] = [];
  const d = doctor(`127.0.0.1:${greeting}`, () => Date.now(), history);
  d.onChange((c) => { heard.push(c); });
  await Promise.all([d.run({ ids: ["blocklist"] }), d.run({ ids: ["blocklist"] })]);
  expect(heard.filter((c) => c.subject === "127.0.0.6")).toHaveLength(1);

  const scheduled = createDoctorService({
    config: { doctor: { interval: 150, port25_probe: `127.0.0.1:${greeting}`, public_addresses: [] }, blocklists: { ip_zones: [], domain_zones: [], spamhaus_dqs_key: "" },
      mta: { bounce_domain: "", dane: "off", dnssec_broken_probe: "", dns_servers: [] }, server: { public_url: "http://127.0.0.1:8025" } },
    resolver: createSystemResolver([world.dns.server], { timeoutMs: 1000 }), now: () => Date.now(), mtaHostname: MTA, egressSources: [],
    listDomains: async () => [], getDomain: async () => null, getDkimKeys: async () => [], history: history.control, probeTimeoutMs: 1000,
  });
  expect(scheduled.last()).toBeNull();
  scheduled.start();
  const deadline = Date.now() + 5000;
  while (scheduled.last() === null && Date.now() < deadline) await Bun.sleep(10);
  const first = scheduled.last()!.at;
  while (scheduled.last()!.at === first && Date.now() < deadline) await Bun.sleep(10);
  expect(scheduled.last()!.at).toBeGreaterThan(first);
  await scheduled.stop();
  const stoppedAt = scheduled.last()!.at;
  await Bun.sleep(400);
  expect(scheduled.last()!.at).toBe(stoppedAt);
  await history.close();
});

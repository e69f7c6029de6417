// GET /doctor and GET /blocklists on a running server whose DNS is a real dnsmasq with good and
// broken zones, and the notices a listing posts to account-wide and domain webhooks (real
// receivers, signatures checked).
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:net";
import { createSystemResolver } from "../../../src/dns.ts";
import { makeTestApp, type TestApp } from "../../helpers/app.ts";
import { startReceiver } from "../../helpers/receiver.ts";
import { dkimKeysFor, startWorld } from "../../doctor/fixture.ts";
import { form } from "./setup.ts";

setDefaultTimeout(60_000);
let world: Awaited<ReturnType<typeof startWorld>>;
let t: TestApp;
let base = "";
let greeter: Server;
const account = startReceiver();
const domainHook = startReceiver();

beforeAll(async () => {
  world = await startWorld(await dkimKeysFor("s1"));
  greeter = createServer((s) => s.write("220 probe.test ESMTP\r\n"));
  await new Promise<void>((r) => greeter.listen(0, "127.0.0.1", r));
  const port = (greeter.address() as { port: number }).port;
  t = await makeTestApp({
    domain: "good.test", resolver: createSystemResolver([world.dns.server], { timeoutMs: 1000 }),
    toml: `[mta.egress.ip5]\nsource_address = "127.0.0.5"\nehlo = "mta.good.test"\n[mta.egress.ip6]\nsource_address = "127.0.0.6"\nehlo = "mx6.good.test"\n`
      + `[mta.pools.default]\nsources = ["ip5"]\n[mta.pools.bulk]\nsources = ["ip6"]\n[webhooks]\nallow_private = true\n`
      + `[doctor]\ninterval = "0"\nport25_probe = "127.0.0.1:${port}"\n[blocklists]\nip_zones = ["bl.test", "refuse.test"]\ndomain_zones = ["dbl.test"]\n`,
  });
  await t.app.domains.add("bad.test");
  base = `http://${(await t.app.start()).http}`;
});
afterAll(async () => {
  await t.close();
  await world.stop();
  greeter.close();
  account.stop();
  domainHook.stop();
});

const call = (path: string, init: RequestInit & { key?: string } = {}) =>
  fetch(`${base}${path}`, { ...init, headers: { "ov-token": init.key ?? t.accountKey } });

test("account webhooks of notice types: created after a signed check, listed; message types refused", async () => {
  const made = await call("/webhooks", { method: "POST", body: form([["id", "ip_listed"], ["url", account.url]]) });
  expect(made.status).toBe(200);
  expect((account.received[0]!.json as { "event-data": { event: string } })["event-data"].event).toBe("ip_listed");
  expect((await call("/domains/bad.test/webhooks", { method: "POST", body: form([["id", "domain_listed"], ["url", domainHook.url]]) })).status).toBe(200);
  expect(await (await call("/webhooks")).json()).toEqual({ webhooks: { ip_listed: { urls: [account.url] } } });
  expect((await call("/webhooks", { method: "POST", body: form([["id", "delivered"], ["url", account.url]]) })).status).toBe(400);
  expect((await call("/webhooks", { key: t.domainKey })).status).toBe(403);
  account.received.length = 0;
  domainHook.received.length = 0;
});

test("GET /doctor: every check with severity, summary, fix and data; only account keys", async () => {
  const res = await call("/doctor");
  expect(res.status).toBe(200);
  const { checks } = await res.json() as { checks: { id: string; subject: string; severity: string; summary: string; fix: string; data: object }[] };
  const of = (id: string, subject: string) => checks.find((c) => c.id === id && c.subject === subject);
  expect(of("port25", checks.find((c) => c.id === "port25")!.subject)?.severity).toBe("ok");
  expect(of("ptr", "127.0.0.5")?.severity).toBe("ok");
  expect(of("ptr", "127.0.0.6")).toMatchObject({ severity: "error", fix: expect.stringMatching(/PTR/) });
  expect(of("dmarc", "good.test")?.severity).toBe("ok");
  expect(of("dmarc", "bad.test")?.severity).toBe("error");
  expect(of("blocklist", "127.0.0.6")?.severity).toBe("error");
  for (const c of checks) expect(Object.keys(c).sort()).toEqual(["data", "fix", "id", "severity", "subject", "summary"]);
  expect((await call("/doctor", { key: t.domainKey })).status).toBe(403);
});

test("GET /doctor?domain=D: D's checks and the machine's only; an unknown domain is 404", async () => {
  const { checks } = await (await call("/doctor?domain=bad.test")).json() as { checks: { id: string; subject: string }[] };
  expect(checks.some((c) => c.id === "dmarc" && c.subject === "bad.test")).toBe(true);
  expect(checks.some((c) => c.subject === "good.test")).toBe(false);
  expect(checks.some((c) => c.id === "ptr")).toBe(true);
  expect((await call("/doctor?domain=nope.test")).status).toBe(404);
});

test("GET /blocklists: items with first_seen/last_seen; the first listing (seen by the doctor runs above) was posted once to the account webhook and the listed domain's own, signed", async () => {
  const res = await call("/blocklists");
  expect(res.status).toBe(200);
  const { items } = await res.json() as { items: Record<string, string>[] };
  expect(items.find((i) => i.subject === "127.0.0.6" && i.zone === "bl.test")).toMatchObject({ kind: "ip", state: "listed", answer: "127.0.0.3", cause: "" });
  expect(items.find((i) => i.subject === "127.0.0.5" && i.zone === "refuse.test")).toMatchObject({ state: "unknown", cause: expect.stringMatching(/refused/) });
  expect(items.every((i) => i.first_seen && i.last_seen)).toBe(true);

  const [ip] = await account.waitFor((r) => r.length >= 1);
  const body = ip!.json as { signature: { timestamp: string; token: string; signature: string }; "event-data": Record<string, unknown> };
  expect(body["event-data"]).toMatchObject({ event: "ip_listed", subject: "127.0.0.6", zone: "bl.test", answer: "127.0.0.3" });
  const key = await t.app.events.keys.forDomain(null);
  expect(createHmac("sha256", key).update(`${body.signature.timestamp}${body.signature.token}`).digest("hex")).toBe(body.signature.signature);
  const [dom] = await domainHook.waitFor((r) => r.length >= 1);
  const dBody = dom!.json as typeof body;
  expect(dBody["event-data"]).toMatchObject({ event: "domain_listed", subject: "bad.test", zone: "dbl.test", domain: "bad.test" });
  const dKey = await t.app.events.keys.forDomain("bad.test");
  expect(createHmac("sha256", dKey).update(`${dBody.signature.timestamp}${dBody.signature.token}`).digest("hex")).toBe(dBody.signature.signature);

  // Asked again: nothing changed, nothing posted.
  await call("/blocklists");
  await Bun.sleep(300);
  expect(account.received).toHaveLength(1);
  expect((await call("/webhooks/ip_listed", { method: "DELETE" })).status).toBe(200);
});

test("tenants: a tenant's key runs the doctor for its own domain only, and sees only its own domains' listings", async () => {
  const acme = await t.app.tenants.add("acme");
  await t.app.domains.add("acme.test", { tenant: acme.id });
  const key = (await t.app.access.createKey({ kind: "account", tenant: acme.id })).key;
  expect((await call("/doctor", { key })).status).toBe(403);
  expect((await call("/doctor?domain=bad.test", { key })).status).toBe(404);
  const own = await (await call("/doctor?domain=acme.test", { key })).json() as { checks: { subject: string }[] };
  expect(own.checks.some((c) => c.subject === "acme.test")).toBe(true);
  expect(own.checks.some((c) => c.subject === "bad.test" || c.subject === "good.test")).toBe(false);
  const { items } = await (await call("/blocklists", { key })).json() as { items: { kind: string; subject: string }[] };
  expect(items.filter((i) => i.kind === "domain").map((i) => i.subject).sort()).toEqual(["acme.test", "bounces.acme.test", "email.acme.test"]);
  // Addresses: only those its mail leaves from (the default pool's, 127.0.0.5), not the bulk pool's listed 127.0.0.6.
  expect(items.filter((i) => i.kind === "ip").map((i) => i.subject)).toContain("127.0.0.5");
  expect(items.some((i) => i.subject === "127.0.0.6")).toBe(false);
  expect(own.checks.some((c) => c.subject === "127.0.0.5")).toBe(true);
  expect(own.checks.some((c) => c.subject === "127.0.0.6")).toBe(false);
  // A tenant given the bulk pool sees that address instead; the primary's key sees both.
  const bulk = await t.app.tenants.add("bulk-tenant");
  await t.app.tenants.setPool(bulk.id, "bulk");
  await t.app.domains.add("bulk-tenant.test", { tenant: bulk.id });
  const bulkKey = (await t.app.access.createKey({ kind: "account", tenant: bulk.id })).key;
  const seen = await (await call("/blocklists", { key: bulkKey })).json() as { items: { kind: string; subject: string }[] };
  expect([...new Set(seen.items.filter((i) => i.kind === "ip").map((i) => i.subject))]).toEqual(["127.0.0.6"]);
  const ptrs = await (await call("/doctor?domain=bulk-tenant.test", { key: bulkKey })).json() as { checks: { id: string; subject: string }[] };
  expect(ptrs.checks.filter((c) => c.id === "ptr").map((c) => c.subject)).toEqual(["127.0.0.6"]);
  // Its domain's SPF is judged from the addresses its mail leaves from, and names no other.
  const spf = ptrs.checks.find((c) => c.id === "spf") as unknown as { summary: string; data: Record<string, { addresses: Record<string, string> }> };
  expect(Object.keys(spf.data.from!.addresses)).toEqual(["127.0.0.6"]);
  expect(JSON.stringify(ptrs.checks)).not.toContain("127.0.0.5");
  const all = await (await call("/blocklists")).json() as { items: { kind: string; subject: string }[] };
  expect(new Set(all.items.filter((i) => i.kind === "ip").map((i) => i.subject))).toEqual(new Set(["127.0.0.5", "127.0.0.6"]));
});

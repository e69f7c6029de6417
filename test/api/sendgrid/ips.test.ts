// Egress through the SendGrid surface: ip_pool_name per message with the official @sendgrid/mail
// (checked at the sink's peer address), an unknown pool as SendGrid's 400, and the IP listings
// (GET /v3/ips, /v3/ips/pools, /v3/ips/warmup) through @sendgrid/client.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startHarness, type SendgridHarness } from "./setup.ts";
import { deliveredTo, egressToml, peerFor, today } from "../../helpers/egress.ts";

setDefaultTimeout(60_000);
let h: SendgridHarness;
beforeAll(async () => { h = await startHarness({ toml: egressToml() }); await h.t.app.mta.scheduler.start(); });
afterAll(async () => { await h.close(); });

const FROM = "alice@example.com";

describe("SendGrid ip_pool_name", () => {
  test("a message goes out from its pool's address; without one, from the default pool's", async () => {
    await h.mail.send({ to: "pooled@dest.test", from: FROM, subject: "s", text: "t", ipPoolName: "bulk" });
    await h.mail.send({ to: "plain@dest.test", from: FROM, subject: "s", text: "t" });
    expect(await peerFor(h.sink, "pooled@dest.test")).toBe("127.0.0.3");
    expect(await peerFor(h.sink, "plain@dest.test")).toBe("127.0.0.2");
    expect(h.sink.messages.find((m) => m.to.includes("pooled@dest.test"))!.session.hostNameAppearsAs).toBe("mta3.test");
  });

  test("an unknown pool is SendGrid's 400 naming ip_pool_name", async () => {
    const err = await h.mail.send({ to: "x@dest.test", from: FROM, subject: "s", text: "t", ipPoolName: "nosuchpool" }).catch((e) => e);
    expect(err.code).toBe(400);
    expect(err.response.body.errors).toEqual([{ field: "ip_pool_name", help: null, message: expect.stringContaining('unknown ip pool "nosuchpool"') }]);
  });
});

describe("SendGrid Email Activity carries the source", () => {
  test("outbound_ip of the delivery, as the receiver saw it; outbound_ip_type dedicated", async () => {
    const [bulk] = await h.mail.send({ to: "ev-bulk@dest.test", from: FROM, subject: "s", text: "t", ipPoolName: "bulk" });
    const [plain] = await h.mail.send({ to: "ev-plain@dest.test", from: FROM, subject: "s", text: "t" });
    for (const r of ["ev-bulk@dest.test", "ev-plain@dest.test"]) await deliveredTo(h.t.app, r);
    const detail = async (x: string) => (await h.client.request({ method: "GET", url: `/v3/messages/${x}` }))[1] as Record<string, unknown>;
    expect(await detail(bulk.headers["x-message-id"] as string)).toMatchObject({ to_email: "ev-bulk@dest.test", outbound_ip: "127.0.0.3", outbound_ip_type: "dedicated" });
    expect(await detail(plain.headers["x-message-id"] as string)).toMatchObject({ to_email: "ev-plain@dest.test", outbound_ip: "127.0.0.2" });
    // SendGrid's outbound_ip query clause.
    const list = async (x: string, ip: string) => ((await h.client.request({ method: "GET", url: "/v3/messages",
      qs: { query: `msg_id="${x}" AND outbound_ip="${ip}"` } }))[1] as { messages: { to_email: string }[] }).messages;
    expect(await list(bulk.headers["x-message-id"] as string, "127.0.0.3")).toMatchObject([{ to_email: "ev-bulk@dest.test" }]);
    expect(await list(bulk.headers["x-message-id"] as string, "127.0.0.2")).toEqual([]);
    expect(await peerFor(h.sink, "ev-bulk@dest.test")).toBe("127.0.0.3");
  });
});

describe("SendGrid IP listings", () => {
  test("GET /v3/ips: each address with its pools and warm-up", async () => {
    const [res, body] = await h.client.request({ url: "/v3/ips", method: "GET" });
    expect(res.statusCode).toBe(200);
    const start = Date.parse(`${today()}T00:00:00Z`) / 1000;
    expect(body).toEqual([
      { ip: "127.0.0.2", subusers: [], rdns: "mta2.test", pools: ["default"], warmup: false, start_date: null, whitelabeled: false, assigned_at: null },
      { ip: "127.0.0.3", subusers: [], rdns: "mta3.test", pools: ["bulk"], warmup: true, start_date: start, whitelabeled: false, assigned_at: null },
    ]);
    const [, one] = await h.client.request({ url: "/v3/ips", method: "GET", qs: { ip: "127.0.0.3" } });
    expect((one as { ip: string }[]).map((x) => x.ip)).toEqual(["127.0.0.3"]);
  });

  test("GET /v3/ips/pools and /v3/ips/warmup", async () => {
    const [, pools] = await h.client.request({ url: "/v3/ips/pools", method: "GET" });
    expect(pools).toEqual([{ name: "default" }, { name: "bulk" }]);
    const [, warmup] = await h.client.request({ url: "/v3/ips/warmup", method: "GET" });
    expect(warmup).toEqual([{ ip: "127.0.0.3", start_date: Date.parse(`${today()}T00:00:00Z`) / 1000 }]);
  });

  test("a key without the ips scope is refused; Basic auth on /v3/ips is Mailgun's surface", async () => {
    const limited = await h.t.app.access.createKey({ kind: "domain", domain: "example.com", grants: ["mail.send"] });
    const res = await h.t.app.http(new Request("http://127.0.0.1/v3/ips", { headers: { authorization: `Bearer ${limited.key}` } }));
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ errors: [{ field: null, message: "access forbidden", help: null }] });
    const mg = await h.t.app.http(new Request("http://127.0.0.1/v3/ips", { headers: { authorization: `Basic ${btoa(`api:${h.t.accountKey}`)}` } }));
    expect(await mg.json()).toMatchObject({ items: ["127.0.0.2", "127.0.0.3"], total_count: 2 });
  });
});

describe("SendGrid IP listings for a subuser (contract §14: a tenant sees the egress serving it)", () => {
  test("a tenant's key lists only its pool's addresses; on-behalf-of shows the subuser's; the installation's key all; no tenant changes a pool", async () => {
    const acme = await h.t.app.tenants.add("sg-ips-acme");
    await h.t.app.tenants.setPool(acme.id, "bulk");
    await h.t.app.domains.add("ips-acme.test", { tenant: acme.id });
    const plain = await h.t.app.tenants.add("sg-ips-plain");
    const acmeKey = (await h.t.app.access.createKey({ kind: "account", tenant: acme.id })).key;
    const plainKey = (await h.t.app.access.createKey({ kind: "account", tenant: plain.id })).key;
    const get = async (key: string, url: string, headers: Record<string, string> = {}) => {
      const { client } = h.clientsFor(key);
      const [res, body] = await client.request({ url, method: "GET", headers });
      expect(res.statusCode).toBe(200);
      return body as { ip?: string; name?: string }[];
    };
    expect((await get(acmeKey, "/v3/ips")).map((x) => x.ip)).toEqual(["127.0.0.3"]);
    expect(await get(acmeKey, "/v3/ips/pools")).toEqual([{ name: "bulk" }]);
    expect((await get(acmeKey, "/v3/ips/warmup")).map((x) => x.ip)).toEqual(["127.0.0.3"]);
    expect((await get(plainKey, "/v3/ips")).map((x) => x.ip)).toEqual(["127.0.0.2"]);
    expect(await get(plainKey, "/v3/ips/pools")).toEqual([{ name: "default" }]);
    expect(await get(plainKey, "/v3/ips/warmup")).toEqual([]);
    expect((await get(plainKey, "/v3/ips", {})).map((x) => x.ip)).not.toContain("127.0.0.3");
    // The primary's account key acting for the subuser sees the subuser's share; a tenant naming another is refused.
    expect((await get(h.t.accountKey, "/v3/ips", { "on-behalf-of": "sg-ips-acme" })).map((x) => x.ip)).toEqual(["127.0.0.3"]);
    const other = await h.clientsFor(plainKey).client.request({ url: "/v3/ips", method: "GET", headers: { "on-behalf-of": "sg-ips-acme" } }).catch((e) => e);
    expect(other.code).toBe(403);
    // The installation's keys still list every address and pool.
    expect((await get(h.t.accountKey, "/v3/ips")).map((x) => x.ip)).toEqual(["127.0.0.2", "127.0.0.3"]);
    expect(await get(h.t.domainKey, "/v3/ips/pools")).toEqual([{ name: "default" }, { name: "bulk" }]);
    // Pools are the operator's configuration: no key creates or changes one over the API.
    const made = await h.clientsFor(acmeKey).client.request({ url: "/v3/ips/pools", method: "POST", body: { name: "mine" } }).catch((e) => e);
    expect(made.code).toBeGreaterThanOrEqual(400);
    expect(made.code).toBeLessThan(500);
    expect(made.response.body.errors[0]).toHaveProperty("message");
    expect(h.t.app.egress.directory.poolNames()).toEqual(["default", "bulk"]);
  });
});

describe("SendGrid ip_pool_name for a subuser", () => {
  test("a subuser's mail may name only a pool serving it; another pool is as unknown as none, and the 400 names only its own", async () => {
    const t = await h.t.app.tenants.add("sg-pool-send");
    await h.t.app.tenants.setPool(t.id, "bulk");
    await h.t.app.domains.add("pool-send.test", { tenant: t.id });
    await h.t.app.domains.verify("pool-send.test", true);
    const { mail } = h.clientsFor((await h.t.app.access.createKey({ kind: "domain", domain: "pool-send.test", tenant: t.id })).key);
    const from = "a@pool-send.test";
    const err = await mail.send({ to: "x@dest.test", from, subject: "s", text: "t", ipPoolName: "default" }).catch((e) => e);
    expect(err.code).toBe(400);
    expect(err.response.body.errors).toEqual([{ field: "ip_pool_name", help: null, message: 'unknown ip pool "default": the pools are bulk' }]);
    await mail.send({ to: "tenant-pooled@dest.test", from, subject: "s", text: "t", ipPoolName: "bulk" });
    expect(await peerFor(h.sink, "tenant-pooled@dest.test")).toBe("127.0.0.3");
    // The primary's mail names any configured pool, as before.
    await h.mail.send({ to: "primary-default@dest.test", from: FROM, subject: "s", text: "t", ipPoolName: "default" });
    expect(await peerFor(h.sink, "primary-default@dest.test")).toBe("127.0.0.2");
  });
});

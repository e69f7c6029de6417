// Egress through the Mailgun surface with the official mailgun.js: o:sending-ip-pool and
// o:sending-ip per message (checked at the sink's peer address), unknown ones as Mailgun's 400,
// and the listings GET /v3/ips and GET /v3/domains/{d}/ips.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startHarness, jsonOf, type MailgunHarness } from "./helpers.ts";
import { deliveredTo, egressToml, peerFor } from "../../helpers/egress.ts";

setDefaultTimeout(60_000);
let h: MailgunHarness;
beforeAll(async () => { h = await startHarness({ toml: egressToml() }); await h.t.app.mta.scheduler.start(); });
afterAll(async () => { await h.close(); });

const msg = (to: string, extra: Record<string, string> = {}) => ({ from: "a@example.com", to: [to], subject: "s", text: "t", ...extra });

describe("Mailgun o:sending-ip-pool and o:sending-ip", () => {
  test("the message goes out from the pool's address, or from the named address", async () => {
    await h.mg.messages.create("example.com", msg("pool@dest.test", { "o:sending-ip-pool": "bulk" }));
    await h.mg.messages.create("example.com", msg("ip@dest.test", { "o:sending-ip": "127.0.0.3" }));
    await h.mg.messages.create("example.com", msg("plain@dest.test"));
    expect(await peerFor(h.sink, "pool@dest.test")).toBe("127.0.0.3");
    expect(await peerFor(h.sink, "ip@dest.test")).toBe("127.0.0.3");
    expect(await peerFor(h.sink, "plain@dest.test")).toBe("127.0.0.2");
  });

  test("an unknown pool or address is Mailgun's 400", async () => {
    const pool = await h.mg.messages.create("example.com", msg("x@dest.test", { "o:sending-ip-pool": "nope" })).catch((e) => e);
    expect(pool.status).toBe(400);
    expect(pool.details).toContain('unknown ip pool "nope"');
    const ip = await h.mg.messages.create("example.com", msg("x@dest.test", { "o:sending-ip": "10.9.9.9" })).catch((e) => e);
    expect(ip.status).toBe(400);
    expect(ip.details).toContain('unknown sending ip "10.9.9.9"');
  });
});

describe("Mailgun events carry the source", () => {
  test("envelope.sending-ip of the delivery, as the receiver saw it", async () => {
    await h.mg.messages.create("example.com", msg("ev-bulk@dest.test", { "o:sending-ip-pool": "bulk" }));
    await h.mg.messages.create("example.com", msg("ev-plain@dest.test"));
    for (const r of ["ev-bulk@dest.test", "ev-plain@dest.test"]) await deliveredTo(h.t.app, r);
    const envelope = async (r: string) => {
      const { items } = await h.mg.events.get("example.com", { event: "delivered", recipient: r });
      expect(items).toHaveLength(1);
      return (items[0] as unknown as { envelope: Record<string, string> }).envelope;
    };
    expect(await envelope("ev-bulk@dest.test")).toMatchObject({ "sending-ip": "127.0.0.3", targets: "ev-bulk@dest.test", transport: "smtp" });
    expect(await envelope("ev-plain@dest.test")).toMatchObject({ "sending-ip": "127.0.0.2" });
    expect(await peerFor(h.sink, "ev-bulk@dest.test")).toBe("127.0.0.3");
  });
});

describe("Mailgun IP listings", () => {
  test("GET /v3/ips through mailgun.js", async () => {
    const res = await h.call("GET", "/v3/ips");
    expect(await jsonOf(res)).toEqual({ assignable_to_pools: ["127.0.0.2", "127.0.0.3"], items: ["127.0.0.2", "127.0.0.3"], total_count: 2 });
    const listed = await h.mg.ips.list({ dedicated: true, enabled: true } as never);
    expect(JSON.stringify(listed)).toContain("127.0.0.3");
  });

  test("GET /v3/domains/{d}/ips: the addresses of the domain's pool", async () => {
    expect(await jsonOf(await h.call("GET", "/v3/domains/example.com/ips"))).toEqual({ items: ["127.0.0.2"], total_count: 1 });
    await h.t.app.domains.set("example.com", { pool: "bulk" });
    expect(await jsonOf(await h.call("GET", "/v3/domains/example.com/ips"))).toEqual({ items: ["127.0.0.3"], total_count: 1 });
    const viaClient = await h.mg.domains.getIps("example.com");
    expect(JSON.stringify(viaClient)).toContain("127.0.0.3");
    await h.mg.messages.create("example.com", msg("domainpool@dest.test"));
    expect(await peerFor(h.sink, "domainpool@dest.test")).toBe("127.0.0.3");
    await h.t.app.domains.set("example.com", { pool: "" });
  });

  test("pool_id on domain create and update sets the domain's pool; an unknown one is a 400", async () => {
    const created = await h.call("POST", "/v3/domains", { body: new URLSearchParams({ name: "pooled.test", pool_id: "bulk" }) });
    expect(created.status).toBe(200);
    expect((await h.t.app.domains.get("pooled.test"))!.pool).toBe("bulk");
    expect(await jsonOf(await h.call("GET", "/v3/domains/pooled.test/ips"))).toEqual({ items: ["127.0.0.3"], total_count: 1 });
    const cleared = await h.call("PUT", "/v3/domains/pooled.test", { body: new URLSearchParams({ pool_id: "" }) });
    expect(cleared.status).toBe(200);
    expect((await h.t.app.domains.get("pooled.test"))!.pool).toBe("");
    const bad = await h.call("POST", "/v3/domains", { body: new URLSearchParams({ name: "bad.test", pool_id: "nope" }) });
    expect(bad.status).toBe(400);
    expect((await jsonOf(bad)).message).toContain('unknown ip pool "nope"');
    expect(await h.t.app.domains.get("bad.test")).toBeNull();
    const badPut = await h.call("PUT", "/v3/domains/pooled.test", { body: new URLSearchParams({ pool_id: "nope" }) });
    expect(badPut.status).toBe(400);
  });

  test("a sending key may not list (Mailgun's sending keys only send)", async () => {
    const dk = await h.call("GET", "/v3/ips", { key: h.t.domainKey });
    expect(dk.status).toBe(403);
    expect((await jsonOf(dk)).message).toMatch(/sending keys may only send/);
  });
});

describe("Mailgun IP listings for a subaccount (contract §14: a tenant sees the egress serving it)", () => {
  test("a subaccount's own key and X-Mailgun-On-Behalf-Of list only its pool's addresses; the primary's key every one", async () => {
    const acme = await h.t.app.tenants.add("mg-ips-acme");
    await h.t.app.tenants.setPool(acme.id, "bulk");
    await h.t.app.domains.add("mg-ips-acme.test", { tenant: acme.id });
    const plain = await h.t.app.tenants.add("mg-ips-plain");
    const acmeKey = (await h.t.app.access.createKey({ kind: "account", tenant: acme.id })).key;
    const plainKey = (await h.t.app.access.createKey({ kind: "account", tenant: plain.id })).key;
    const items = async (key: string, path = "/v3/ips", headers: Record<string, string> = {}) => {
      const res = await h.call("GET", path, { key, headers });
      expect(res.status).toBe(200);
      return (await jsonOf(res)).items as string[];
    };
    expect(await items(acmeKey)).toEqual(["127.0.0.3"]);
    expect(await items(plainKey)).toEqual(["127.0.0.2"]);
    expect(await items(h.t.accountKey, "/v3/ips", { "X-Mailgun-On-Behalf-Of": String(acme.id) })).toEqual(["127.0.0.3"]);
    expect(await items(h.t.accountKey)).toEqual(["127.0.0.2", "127.0.0.3"]);
    // Through mailgun.js: the subaccount's own key.
    expect(JSON.stringify(await h.client(acmeKey).ips.list({} as never))).not.toContain("127.0.0.2");
    // A domain's addresses follow its tenant's pool; another tenant's domain is Mailgun's 403.
    expect(await items(acmeKey, "/v3/domains/mg-ips-acme.test/ips")).toEqual(["127.0.0.3"]);
    const foreign = await h.call("GET", "/v3/domains/mg-ips-acme.test/ips", { key: plainKey });
    expect(foreign.status).toBe(403);
    expect(await jsonOf(foreign)).toHaveProperty("message");
    // pool_id: a subaccount's domain takes only a pool serving it; another is as unknown as none.
    const badCreate = await h.call("POST", "/v3/domains", { key: acmeKey, body: new URLSearchParams({ name: "mg-ips-x.test", pool_id: "default" }) });
    expect(badCreate.status).toBe(400);
    expect((await jsonOf(badCreate)).message).toContain('unknown ip pool "default"');
    expect(await h.t.app.domains.get("mg-ips-x.test")).toBeNull();
    expect((await h.call("PUT", "/v3/domains/mg-ips-acme.test", { key: acmeKey, body: new URLSearchParams({ pool_id: "default" }) })).status).toBe(400);
    expect((await h.call("PUT", "/v3/domains/mg-ips-acme.test", { key: acmeKey, body: new URLSearchParams({ pool_id: "bulk" }) })).status).toBe(200);
    expect((await h.t.app.domains.get("mg-ips-acme.test"))!.pool).toBe("bulk");
    // Pools are the operator's configuration: no key makes one over the API.
    const made = await h.call("POST", "/v3/ip_pools", { key: acmeKey, body: new URLSearchParams({ name: "mine" }) });
    expect(made.status).toBeGreaterThanOrEqual(400);
    expect(made.status).toBeLessThan(500);
    expect(h.t.app.egress.directory.poolNames()).toEqual(["default", "bulk"]);
  });
});

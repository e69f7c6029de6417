// Egress through the SparkPost surface with the official sparkpost client: options.ip_pool per
// transmission (checked at the sink's peer address), an unknown pool as a 400 in SparkPost's
// shape, and GET /api/v1/ip-pools.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import SparkPost from "sparkpost";
import { bodyOf, failure, startSpEnv, type SpEnv } from "./setup.ts";
import { deliveredTo, egressToml, peerFor } from "../../helpers/egress.ts";

let env: SpEnv;
beforeAll(async () => { env = await startSpEnv({ toml: egressToml() }); await env.t.app.mta.scheduler.start(); });
afterAll(async () => { await env.close(); });

const tx = (to: string, options: Record<string, unknown> = {}) => ({
  options, recipients: [{ address: { email: to } }], content: { from: "a@example.com", subject: "s", text: "t" } });

describe("SparkPost options.ip_pool", () => {
  test("a transmission goes out from its pool's address; without one, from the default pool's", async () => {
    await env.domain.transmissions.send(tx("pool@dest.test", { ip_pool: "bulk" }));
    await env.domain.transmissions.send(tx("plain@dest.test"));
    expect(await peerFor(env.sink, "pool@dest.test")).toBe("127.0.0.3");
    expect(await peerFor(env.sink, "plain@dest.test")).toBe("127.0.0.2");
  });

  test("an unknown pool is a 400 in SparkPost's error shape", async () => {
    const err = await failure(env.domain.transmissions.send(tx("x@dest.test", { ip_pool: "nope" })));
    expect(err.statusCode).toBe(400);
    expect(err.errors).toEqual([{ message: "invalid data format/type", code: "1300", description: expect.stringContaining('options.ip_pool: unknown ip pool "nope"') }]);
  });
});

describe("SparkPost events carry the source", () => {
  test("sending_ip and ip_pool of the delivery, as the receiver saw it", async () => {
    await env.domain.transmissions.send(tx("ev-bulk@dest.test", { ip_pool: "bulk" }));
    await env.domain.transmissions.send(tx("ev-plain@dest.test"));
    for (const r of ["ev-bulk@dest.test", "ev-plain@dest.test"]) await deliveredTo(env.t.app, r);
    const events = async (r: string) => (await env.domain.get({ uri: "events/message", qs: { events: "delivery", recipients: r } })).results;
    expect(await events("ev-bulk@dest.test")).toMatchObject([{ type: "delivery", sending_ip: await peerFor(env.sink, "ev-bulk@dest.test"), ip_pool: "bulk" }]);
    expect(await events("ev-plain@dest.test")).toMatchObject([{ type: "delivery", sending_ip: "127.0.0.2", ip_pool: "default" }]);
    expect(await peerFor(env.sink, "ev-bulk@dest.test")).toBe("127.0.0.3");
  });
});

describe("SparkPost GET /api/v1/ip-pools", () => {
  test("every pool with its addresses, EHLO names and warm-up", async () => {
    const body = await bodyOf(await env.call("GET", "/api/v1/ip-pools", env.t.accountKey));
    expect(body.results).toEqual([
      { id: "default", name: "default", signing_domain: "", fbl_signing_domain: "", auto_warmup_overflow_pool: "",
        ips: [{ external_ip: "127.0.0.2", hostname: "mta2.test", auto_warmup_overflow_pool: "", auto_warmup_enabled: false }] },
      { id: "bulk", name: "bulk", signing_domain: "", fbl_signing_domain: "", auto_warmup_overflow_pool: "",
        ips: [{ external_ip: "127.0.0.3", hostname: "mta3.test", auto_warmup_overflow_pool: "", auto_warmup_enabled: true, auto_warmup_stage: 1 }] },
    ]);
    const one = await bodyOf(await env.call("GET", "/api/v1/ip-pools/bulk", env.t.accountKey));
    expect(one.results.id).toBe("bulk");
    const missing = await env.call("GET", "/api/v1/ip-pools/nope", env.t.accountKey);
    expect(missing.status).toBe(404);
    expect((await bodyOf(missing)).errors[0]).toMatchObject({ code: "1600" });
  });

  test("the ip_pools/view grant lets a key list; a key without it is refused", async () => {
    const viewer = await env.t.app.access.createKey({ kind: "account", grants: ["ip_pools/view"] });
    expect((await env.call("GET", "/api/v1/ip-pools", viewer.key)).status).toBe(200);
    const sender = await env.t.app.access.createKey({ kind: "account", grants: ["transmissions/modify"] });
    expect((await env.call("GET", "/api/v1/ip-pools", sender.key)).status).toBe(403);
  });
});

describe("SparkPost ip-pools for a subaccount (contract §14: a tenant sees the pools serving it)", () => {
  test("a subaccount's key lists only its pool; another pool does not exist for it; the primary's key, with the header, the subaccount's", async () => {
    const acme = await env.t.app.tenants.add("sp-pools-acme");
    await env.t.app.tenants.setPool(acme.id, "bulk");
    const plain = await env.t.app.tenants.add("sp-pools-plain");
    const acmeKey = (await env.t.app.access.createKey({ kind: "account", tenant: acme.id })).key;
    const plainKey = (await env.t.app.access.createKey({ kind: "account", tenant: plain.id })).key;
    const as = (key: string, subaccount?: number) => new SparkPost(key, { origin: env.origin, ...(subaccount === undefined ? {} : { headers: { "X-MSYS-SUBACCOUNT": String(subaccount) } }) });
    const names = async (c: SparkPost) => ((await c.get({ uri: "ip-pools" })).results as { id: string }[]).map((p) => p.id);
    expect(await names(as(acmeKey))).toEqual(["bulk"]);
    expect(await names(as(plainKey))).toEqual(["default"]);
    expect(await names(as(env.t.accountKey, acme.id))).toEqual(["bulk"]);
    expect(await names(as(env.t.accountKey, 0))).toEqual(["default", "bulk"]);
    expect(await names(as(env.t.accountKey))).toEqual(["default", "bulk"]);
    expect(((await as(acmeKey).get({ uri: "ip-pools/bulk" })).results as { ips: { external_ip: string }[] }).ips.map((i) => i.external_ip)).toEqual(["127.0.0.3"]);
    const hidden = await failure(as(plainKey).get({ uri: "ip-pools/bulk" }));
    expect(hidden.statusCode).toBe(404);
    expect(hidden.errors).toEqual([expect.objectContaining({ code: "1600", description: "IP pool 'bulk' does not exist" })]);
    // Pools are the operator's configuration: no key makes or changes one over the API.
    const made = await failure(as(acmeKey).post({ uri: "ip-pools", json: { name: "mine" } }));
    expect(made.statusCode).toBeGreaterThanOrEqual(400);
    expect(made.statusCode).toBeLessThan(500);
    expect(env.t.app.egress.directory.poolNames()).toEqual(["default", "bulk"]);
  });
});

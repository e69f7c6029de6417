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

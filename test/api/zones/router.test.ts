import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import Mailgun from "mailgun.js";
import NodeFormData from "form-data";
import { Client } from "@sendgrid/client";
import { MailService } from "@sendgrid/mail";
import SparkPost from "sparkpost";
import { makeTestApp, type TestApp } from "../../helpers/app.ts";
import { PROXIED_HEADER } from "../../../src/api/zones/proxy.ts";
import { pointClient } from "../sendgrid/setup.ts";

// A node of zone us whose zone eu is served at a real second HTTP server (standing in for the eu
// node: it records what arrives and answers in each vendor's success shape). The eu domain is put
// in the control data directly, as another node sharing it would have added it.
setDefaultTimeout(60_000);

interface Seen { method: string; path: string; headers: Headers; body: string }
let seen: Seen[] = [];
let eu: ReturnType<typeof Bun.serve>;
let t: TestApp;
let base: string;
let euKey: string;

function answer(path: string): Response {
  if (path.startsWith("/v3/mail/send")) return new Response(null, { status: 202, headers: { "x-message-id": "from-eu" } });
  if (path.startsWith("/api/v1/")) return Response.json({ results: { id: "from-eu", total_accepted_recipients: 1, total_rejected_recipients: 0 } });
  if (path.startsWith("/ui/api/")) return Response.json({ name: "eu.test", zone: "eu" });
  if (/^\/v\d\//.test(path)) return Response.json({ id: "<from-eu@eu>", message: "Queued. Thank you." });
  return Response.json({ message: "OK", status: 200, from: "eu" });
}

beforeAll(async () => {
  eu = Bun.serve({
    hostname: "127.0.0.1", port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      if (url.pathname.includes("slow.eu.test")) await Bun.sleep(3_000);
      seen.push({ method: req.method, path: url.pathname + url.search, headers: req.headers, body: await req.text() });
      return answer(url.pathname);
    },
  });
  const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const downPort = closed.port;
  closed.stop(true);
  t = await makeTestApp({ toml: `[zones]\nnames = ["us", "eu", "ap"]\nproxy_timeout = "1s"\n[zones.eu]\nurl = "http://127.0.0.1:${eu.port}"\n` +
    `[zones.ap]\nurl = "http://127.0.0.1:${downPort}"\n` });
  for (const [name, zone] of [["eu.test", "eu"], ["slow.eu.test", "eu"], ["ap.test", "ap"]] as const) {
    await t.app.store.control.insertDomain({ name, zone, wildcard: false, dkimSelector: "s1", keys: [], validation: true, botDetection: true,
      openTracking: false, clickTracking: false, unsubscribeTracking: false, inbound: false, limitMax: 0, limitWindow: "month" }, Date.now());
    await t.app.store.control.updateDomain(name, { state: "active" }, Date.now());
  }
  euKey = (await t.app.access.createKey({ kind: "domain", domain: "eu.test" })).key;
  base = `http://${(await t.app.start()).http}`;
});
afterAll(async () => { await t.close(); eu.stop(true); });

const last = () => seen[seen.length - 1]!;
const mailgun = (key: string) => new Mailgun(NodeFormData as never).client({ username: "api", key, url: base });
const caught = async (p: Promise<unknown>): Promise<any> => { try { await p; } catch (e) { return e; } throw new Error("expected a failure"); };

describe("requests for a domain of a zone served elsewhere", () => {
  test("Mailgun: mailgun.js sends for the eu domain; the eu node gets the form and its answer comes back", async () => {
    seen = [];
    const res = await mailgun(t.accountKey).messages.create("eu.test", { from: "a@eu.test", to: "b@dest.test", subject: "Zoned", text: "hello from us" });
    expect(res).toMatchObject({ id: "<from-eu@eu>", message: "Queued. Thank you." });
    expect(last().method).toBe("POST");
    expect(last().path).toBe("/v3/eu.test/messages");
    expect(last().headers.get("authorization")).toBe(`Basic ${btoa(`api:${t.accountKey}`)}`);
    expect(last().headers.get(PROXIED_HEADER)).toBe("us");
    expect(last().body).toContain("hello from us");
    // This node holds no data of zone eu at all.
    expect(t.app.store.zoneNames()).toEqual(["us"]);
  });

  test("Mailgun: /v3/domains/<eu domain>/… and queries go too; a domain of this node's zone is served here", async () => {
    seen = [];
    await mailgun(t.accountKey).events.get("eu.test", { limit: 5 }).catch(() => null);
    expect(last().path).toBe("/v3/eu.test/events?limit=5");
    const here = await mailgun(t.accountKey).domains.get("example.com");
    expect(here.name).toBe("example.com");
    const n = seen.length;
    await mailgun(t.accountKey).messages.create("example.com", { from: "a@example.com", to: "b@dest.test", subject: "local", text: "x" });
    expect(seen.length).toBe(n);
  });

  test("SendGrid: @sendgrid/mail with the eu domain's key is proxied whole", async () => {
    seen = [];
    const client = new Client();
    pointClient(client, euKey, `${base}/`);
    const mail = new MailService();
    mail.setClient(client);
    const [res] = await mail.send({ from: "a@eu.test", to: "b@dest.test", subject: "SG zoned", text: "sendgrid body" });
    expect(res.statusCode).toBe(202);
    expect(res.headers["x-message-id"]).toBe("from-eu");
    expect(last().path).toBe("/v3/mail/send");
    expect(JSON.parse(last().body).content[0].value).toBe("sendgrid body");
  });

  test("SparkPost: an account key's transmission from the eu domain goes by content.from", async () => {
    seen = [];
    const sp = new SparkPost(t.accountKey, { origin: base });
    const res = await sp.transmissions.send({ content: { from: "Sender <a@eu.test>", subject: "SP zoned", text: "sp body" }, recipients: [{ address: "b@dest.test" }] });
    expect(res.results.id).toBe("from-eu");
    expect(last().path).toBe("/api/v1/transmissions");
    expect(JSON.parse(last().body).content.text).toBe("sp body");
    await sp.sendingDomains.get("eu.test");
    expect(last().path).toBe("/api/v1/sending-domains/eu.test");
  });

  test("native and console: the domain in the path decides", async () => {
    seen = [];
    const native = await fetch(`${base}/eu.test/messages`, { method: "POST", headers: { "ov-token": t.accountKey, "content-type": "application/json" }, body: "{}" });
    expect(await native.json()).toMatchObject({ from: "eu" });
    expect(last().path).toBe("/eu.test/messages");
    const consoleRes = await fetch(`${base}/ui/api/domains/eu.test`, { headers: { cookie: "postern_session=x" } });
    expect(await consoleRes.json()).toEqual({ name: "eu.test", zone: "eu" });
    expect(last().headers.get("cookie")).toBe("postern_session=x");
  });

  test("a wrong key is refused here, never sent on", async () => {
    seen = [];
    const err = await caught(mailgun("wrong-key").messages.create("eu.test", { from: "a@eu.test", to: "b@dest.test", subject: "x", text: "x" }));
    expect(err.status).toBe(401);
    expect(seen).toEqual([]);
  });

  test("a request proxied already is refused with 502 in the surface's shape, not proxied again", async () => {
    seen = [];
    const res = await fetch(`${base}/v3/eu.test/messages`, {
      method: "POST", headers: { authorization: `Basic ${btoa(`api:${t.accountKey}`)}`, [PROXIED_HEADER]: "eu" }, body: new URLSearchParams({ from: "a@eu.test" }),
    });
    expect(res.status).toBe(502);
    expect(((await res.json()) as { message: string }).message).toMatch(/zone eu, which this node \(zone us\) does not serve/);
    expect(seen).toEqual([]);
  });

  test("a zone that cannot be reached: each surface's own error shape with 503, never a stack trace", async () => {
    const mg = await caught(mailgun(t.accountKey).messages.create("ap.test", { from: "a@ap.test", to: "b@dest.test", subject: "x", text: "x" }));
    expect(mg.status).toBe(503);
    expect(mg.details).toMatch(/zone ap, where domain ap\.test lives, cannot be reached/);
    const apKey = (await t.app.access.createKey({ kind: "domain", domain: "ap.test" })).key;
    const client = new Client();
    pointClient(client, apKey, `${base}/`);
    const sg = await caught(client.request({ method: "POST", url: "/v3/mail/send", body: { from: { email: "a@ap.test" } } }));
    expect(sg.code).toBe(503);
    expect(sg.response.body.errors[0].message).toMatch(/cannot be reached/);
    const sp = await caught(new SparkPost(t.accountKey, { origin: base }).transmissions.send({ content: { from: "a@ap.test", subject: "s", text: "t" }, recipients: [{ address: "b@dest.test" }] }));
    expect(sp.statusCode).toBe(503);
    expect(sp.errors[0]).toMatchObject({ code: "1500", description: expect.stringMatching(/cannot be reached/) });
    const native = await fetch(`${base}/domains/ap.test`, { headers: { "ov-token": t.accountKey } });
    expect(native.status).toBe(503);
    expect(await native.json()).toMatchObject({ status: 503, message: expect.stringMatching(/cannot be reached/) });
    expect(native.headers.get("retry-after")).toBe("5");
  });

  test("a zone that does not answer within proxy_timeout: 504", async () => {
    const err = await caught(mailgun(t.accountKey).messages.create("slow.eu.test", { from: "a@slow.eu.test", to: "b@dest.test", subject: "x", text: "x" }));
    expect(err.status).toBe(504);
    expect(err.details).toMatch(/did not answer in time/);
  });

  test("account-wide requests about control data are answered here: listings show every zone's domains, no zone is asked", async () => {
    seen = [];
    const mg = { authorization: `Basic ${btoa(`api:${t.accountKey}`)}` };
    const sp = { authorization: t.accountKey };
    const native = { "ov-token": t.accountKey };
    const calls: [string, Record<string, string>][] = [
      ["/v4/domains", mg], ["/v3/domains", mg], ["/v3/lists", mg], ["/v3/routes", mg],
      ["/api/v1/sending-domains", sp], ["/api/v1/account", sp], ["/api/v1/webhooks", sp], ["/api/v1/templates", sp],
      ["/domains", native], ["/test", native],
    ];
    for (const [path, headers] of calls) {
      const res = await fetch(`${base}${path}`, { headers });
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      const text = await res.text();
      if (/domains$/.test(path)) expect({ path, listed: text.includes("eu.test") && text.includes("example.com") }).toEqual({ path, listed: true });
    }
    expect(seen).toEqual([]);
  });

  test("account-wide listings of zone data ask every zone (loop-guarded); with zone ap down each answers its surface's 503", async () => {
    seen = [];
    const calls: [string, Record<string, string>, (body: any) => unknown][] = [
      ["/v3/stats/total?event=accepted", { authorization: `Basic ${btoa(`api:${t.accountKey}`)}` }, (b) => b.message],
      ["/api/v1/suppression-list", { authorization: t.accountKey }, (b) => b.errors[0].code],
      ["/api/v1/events/message", { authorization: t.accountKey }, (b) => b.errors[0].code],
      ["/api/v1/transmissions", { authorization: t.accountKey }, (b) => b.errors[0].code],
      ["/api/v1/suppression-list/summary", { authorization: t.accountKey }, (b) => b.errors[0].code],
      ["/api/v1/account?include=usage", { authorization: t.accountKey }, (b) => b.errors[0].code],
      ["/v3/suppression/bounces", { authorization: `Bearer ${t.accountKey}` }, (b) => b.errors[0].message],
    ];
    for (const [path, headers, detail] of calls) {
      const res = await fetch(`${base}${path}`, { headers });
      expect({ path, status: res.status }).toEqual({ path, status: 503 });
      expect(String(detail(await res.json()))).toMatch(/zone ap cannot be reached|1500/);
      const asked = seen.find((x) => x.path.startsWith(path.split("?")[0]!));
      expect(asked?.headers.get(PROXIED_HEADER)).toBe("us");
    }
  });

  test("mail for a domain of a zone served elsewhere is never accepted here (SMTP submission, CLI): a clear refusal", async () => {
    const principal = (await t.app.access.authenticate(euKey))!;
    const req = { domain: "eu.test", from: { email: "a@eu.test" }, subject: "s", text: "t", envelopes: [{ to: [{ email: "b@dest.test" }] }] };
    await expect(t.app.sender.send(principal, req as never)).rejects.toThrow(/domain eu\.test lives in zone eu, which this node does not serve/);
  });

  test("a tracking link of an eu message goes to the eu node; when that zone is down a click still redirects, served here", async () => {
    seen = [];
    const click = t.app.codec.sign({ kind: "click", messageId: "m1", recipientId: "r1", domain: "eu.test", url: "https://landing.example/x" });
    const res = await fetch(`${base}/t/c/${click}`, { redirect: "manual" });
    expect(await res.json()).toMatchObject({ from: "eu" });
    expect(last().path).toBe(`/t/c/${click}`);
    const down = t.app.codec.sign({ kind: "click", messageId: "m2", recipientId: "r2", domain: "ap.test", url: "https://landing.example/y" });
    const local = await fetch(`${base}/t/c/${down}`, { redirect: "manual" });
    expect(local.status).toBe(302);
    expect(local.headers.get("location")).toBe("https://landing.example/y");
    const mine = t.app.codec.sign({ kind: "click", messageId: "m3", recipientId: "r3", domain: "example.com", url: "https://landing.example/z" });
    const n = seen.length;
    expect((await fetch(`${base}/t/c/${mine}`, { redirect: "manual" })).status).toBe(302);
    expect(seen.length).toBe(n);
  });

  test("an account-wide write with zone ap down: done here and at eu, then the surface's 503 says to repeat it", async () => {
    seen = [];
    const res = await fetch(`${base}/v3/suppression/bounces`, { method: "DELETE", headers: { authorization: `Bearer ${t.accountKey}`, "content-type": "application/json" },
      body: JSON.stringify({ emails: ["x@dest.test"] }) });
    expect(res.status).toBe(503);
    expect(((await res.json()) as any).errors[0].message).toMatch(/zone ap cannot be reached; done in this node's zones, not in that one: repeat the request/);
    expect(last().method).toBe("DELETE");
    expect(last().body).toBe(JSON.stringify({ emails: ["x@dest.test"] }));
  });

  test("console: a session signed in with an eu domain key is served by the eu node on every page; an account session's stats ask every zone", async () => {
    const signIn = async (key: string) => {
      const res = await fetch(`${base}/ui/api/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ key }) });
      expect(res.status).toBe(200);
      return res.headers.getSetCookie()[0]!.split(";")[0]!;
    };
    seen = [];
    const euSession = await signIn(euKey);
    expect(seen).toEqual([]);
    await fetch(`${base}/ui/api/stats?range=hours`, { headers: { cookie: euSession } });
    expect(last().path).toBe("/ui/api/stats?range=hours");
    expect(last().headers.get("cookie")).toBe(euSession);
    // An account session's stats (every domain) are gathered from every zone: eu is asked, ap is down.
    const accountSession = await signIn(t.accountKey);
    seen = [];
    const all = await fetch(`${base}/ui/api/stats?range=hours`, { headers: { cookie: accountSession } });
    expect(all.status).toBe(503);
    expect(last().path).toBe("/ui/api/stats?range=hours");
    expect(last().headers.get("cookie")).toBe(accountSession);
    // A signed-out request is refused here and nothing leaves.
    seen = [];
    expect((await fetch(`${base}/ui/api/stats?range=hours`)).status).toBe(401);
    expect(seen).toEqual([]);
  });

  test("one request id in both nodes: the proxy sends its id, and a proxied request keeps the id it came with", async () => {
    seen = [];
    const res = await fetch(`${base}/eu.test/messages`, { method: "POST", headers: { "ov-token": t.accountKey, "content-type": "application/json" }, body: "{}" });
    expect(last().headers.get("x-request-id")).toMatch(/^[0-9a-z]{20}$/);
    expect(res.headers.get("x-request-id")).toBe(last().headers.get("x-request-id"));
    const id = "0123456789abcdefghij";
    const local = await fetch(`${base}/domains/example.com`, { headers: { "ov-token": t.accountKey, [PROXIED_HEADER]: "eu", "x-request-id": id } });
    expect(local.headers.get("x-request-id")).toBe(id);
    const plain = await fetch(`${base}/domains/example.com`, { headers: { "ov-token": t.accountKey, "x-request-id": id } });
    expect(plain.headers.get("x-request-id")).not.toBe(id);
  });
});

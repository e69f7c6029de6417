import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { startNative, type NativeEnv } from "./setup.ts";
import { startReceiver } from "../../helpers/receiver.ts";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
let env: NativeEnv;
let receiver: ReturnType<typeof startReceiver>;
beforeAll(async () => { env = await startNative(); receiver = startReceiver(); });
afterAll(async () => { receiver.stop(); await env.close(); });

const post = (body: unknown, key?: string, domain = "example.com") =>
  env.call(`/${domain}/bot`, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" }, key });

describe("POST /{domain}/bot", () => {
  test("batch mode classifies every event and pushes them, signed, to webhook_url with extra attributes echoed", async () => {
    const events = [
      { ip: "40.94.1.1", uas: "Mozilla/5.0", event_id: "e1", action: "click", ts: 1_800_000_000, message_ts: 1_800_000_000, campaign: "x" },
      { ip: "198.51.100.9", uas: CHROME, event_id: "e2", action: "open", ts: 1_800_003_600, message_ts: 1_800_000_000 },
    ];
    const res = await post({ events, webhook_url: receiver.url });
    expect(res.status).toBe(200);
    const [push] = await receiver.waitFor((r) => r.length >= 1);
    const body = push!.json as { batch: { batch_id: string }; events: { event_id: string; is_bot: boolean; campaign?: string }[]; signature: { timestamp: string; token: string; signature: string } };
    expect(body.events.map((e) => [e.event_id, typeof e.is_bot])).toEqual([["e1", "boolean"], ["e2", "boolean"]]);
    expect(body.events[0]!.campaign).toBe("x");
    expect(body.events.map((e) => e.is_bot)).toEqual([true, false]);
    const key = await env.t.app.events.keys.forDomain("example.com"); // pushes are signed with the domain's key
    expect(createHmac("sha256", key).update(body.signature.timestamp + body.signature.token).digest("hex")).toBe(body.signature.signature);
  });

  test("a batch is judged as its clicks happened, and as a window: a client's four fetches in consecutive seconds, or one browser build's four in one second, are a scanner's, its first fetch too; the same clicks an hour apart, a double click, a link clicked again a second later or links opened in tabs days later are a person's; order in the batch does not matter", async () => {
    const t0 = 1_800_000_000;
    // A broadband address, a current browser, mail delivered a minute before, no recipient domain: only the pattern can decide.
    const click = (id: string, ts: number, message: string, ip = "73.12.34.56", deliveredAgo = 60) =>
      ({ ip, uas: CHROME, event_id: id, action: "click", ts, message_ts: t0 - deliveredAgo, message_id: message, recipient_id: `${message}-r` });
    const verdicts = async (events: object[]) => {
      const seen = receiver.received.length;
      expect((await post({ events, webhook_url: receiver.url })).status).toBe(200);
      const pushes = await receiver.waitFor((r) => r.length > seen);
      return Object.fromEntries((pushes[seen]!.json as { events: { event_id: string; is_bot: boolean }[] }).events.map((e) => [e.event_id, e.is_bot]));
    };
    const burst = [click("s1", t0, "m-burst"), click("s2", t0 + 1, "m-burst"), click("s3", t0 + 2, "m-burst"), click("s4", t0 + 3, "m-burst")];
    // With the fourth fetch, four guessed links within 5 s; the first ones, judged before the others existed,
    // are the same burst's, which the batch shows (bot-batch.ts).
    expect(await verdicts(burst)).toEqual({ s1: true, s2: true, s3: true, s4: true });
    // Two days after delivery, from where people are, the same four are a person opening links in new tabs: a
    // crawl then needs one link more.
    expect(await verdicts(["k1", "k2", "k3", "k4"].map((id, i) => click(id, t0 + i, "m-tabs", "73.12.34.57", 172_800))))
      .toEqual({ k1: false, k2: false, k3: false, k4: false });
    // Out of order, the same.
    expect(await verdicts([click("r3", t0 + 2, "m-rev"), click("r1", t0, "m-rev"), click("r4", t0 + 3, "m-rev"), click("r2", t0 + 1, "m-rev")]))
      .toEqual({ r1: true, r2: true, r3: true, r4: true });
    // A fetch more than the burst window (5 s) before the burst is not part of it.
    expect(await verdicts([click("e1", t0, "m-early"), click("e2", t0 + 20, "m-early"), click("e3", t0 + 21, "m-early"), click("e4", t0 + 22, "m-early"),
      click("e5", t0 + 23, "m-early")])).toEqual({ e1: false, e2: true, e3: true, e4: true, e5: true });
    // Without a url to tell links apart, seconds are guessed links: two of them are one link clicked again as
    // likely as two links (issue #38), and three are two clicks, one doubled across a second.
    expect(await verdicts([click("t1", t0, "m-twice", "24.5.6.12"), click("t2", t0 + 1, "m-twice", "24.5.6.12")])).toEqual({ t1: false, t2: false });
    expect(await verdicts([click("w1", t0, "m-thrice", "24.5.6.13"), click("w2", t0 + 1, "m-thrice", "24.5.6.13"), click("w3", t0 + 3, "m-thrice", "24.5.6.13")]))
      .toEqual({ w1: false, w2: false, w3: false });
    const person = [click("p1", t0, "m-person", "24.5.6.7"), click("p2", t0 + 3_600, "m-person", "24.5.6.7"), click("p3", t0 + 7_200, "m-person", "24.5.6.7"),
      // A double click: two events in the same second are one fetch.
      click("d1", t0, "m-double", "24.5.6.8"), click("d2", t0, "m-double", "24.5.6.8"), click("d3", t0 + 40, "m-double", "24.5.6.8")];
    expect(await verdicts(person)).toEqual({ p1: false, p2: false, p3: false, d1: false, d2: false, d3: false });
    // A double click is two requests: each further click of one browser on the message within that second is
    // another link, as a sandbox fetching every link at once makes them (four: three links in one second).
    expect(await verdicts(["a1", "a2", "a3", "a4"].map((id) => click(id, t0, "m-at-once", "24.5.6.14")))).toEqual({ a1: true, a2: true, a3: true, a4: true });
    expect(await verdicts(["b1", "b2", "b3"].map((id) => click(id, t0, "m-triple", "24.5.6.15")))).toEqual({ b1: false, b2: false, b3: false });
    // One browser build spread over addresses counts the same (a sandbox's fetches of one message); other
    // browsers in that second are other clients.
    expect(await verdicts([click("c1", t0, "m-spread", "24.5.6.16"), click("c2", t0, "m-spread", "24.5.6.16"), click("c3", t0, "m-spread", "24.5.6.17"),
      click("c4", t0, "m-spread", "24.5.6.18")])).toEqual({ c1: true, c2: true, c3: true, c4: true });
    const firefox = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:146.0) Gecko/20100101 Firefox/146.0";
    expect(await verdicts([click("f1", t0, "m-apart", "24.5.6.19"), click("f2", t0, "m-apart", "24.5.6.19"), { ...click("f3", t0, "m-apart", "24.5.6.20"), uas: firefox },
      { ...click("f4", t0, "m-apart", "24.5.6.20"), uas: firefox }])).toEqual({ f1: false, f2: false, f3: false, f4: false });
    // Without ts, one client's clicks are one link whenever they are judged.
    const untimed = (id: string) => ({ ip: "24.5.6.11", uas: CHROME, event_id: id, action: "click", message_id: "m-untimed", recipient_id: "m-untimed-r" });
    expect(await verdicts([untimed("n1"), untimed("n2"), untimed("n3")])).toEqual({ n1: false, n2: false, n3: false });
    // A caller's own `url` attribute names the link: two links in one second are a scanner's, one link twice is not.
    const withUrl = (id: string, ts: number, message: string, url: string, ip: string) => ({ ...click(id, ts, message, ip), url });
    expect(await verdicts([withUrl("u1", t0, "m-url", "https://a.test/1", "24.5.6.9"), withUrl("u2", t0, "m-url", "https://a.test/2", "24.5.6.9"),
      withUrl("v1", t0, "m-url2", "https://a.test/1", "24.5.6.10"), withUrl("v2", t0 + 1, "m-url2", "https://a.test/1", "24.5.6.10")]))
      .toEqual({ u1: true, u2: true, v1: false, v2: false });
  });

  test("a security vendor's network is one client whatever UA it sends, a gateway's time-of-click check before a person's click is a bot, the person not, a cloud address's fetch is a bot when its next fetch of the message gives it away, one cloud's addresses fetching three links within seconds are a sandbox, a cloud fetch 3-15 s after a person's click is its check, a cloud fetch beside the vendor's with its browser build is the vendor's, and two addresses of one cloud on two links within seconds of an undated message are one sandbox", async () => {
    const t0 = 1_800_100_000;
    // Undated, no recipient domain: after the vendor's scan window nothing but the batch can decide.
    const click = (id: string, ts: number, message: string, ip: string, uas = CHROME) =>
      ({ ip, uas, event_id: id, action: "click", ts, message_id: message, recipient_id: `${message}-r` });
    const seen = receiver.received.length;
    const proofpoint = "148.163.130.5", mimecast = "207.211.31.120";
    const ie11 = "Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko";
    const linux = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    const chrome97 = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/97.0.4692.99 Safari/537.36";
    const events = [
      // Proofpoint fetching two links of one message within seconds, a different UA each: one client, a burst.
      { ...click("v1", t0, "m-vendor", proofpoint), url: "https://shop.test/a" }, { ...click("v2", t0 + 2, "m-vendor", proofpoint, linux), url: "https://shop.test/b" },
      // Mimecast checking the link as the person clicks it, then the person, let through from their own network.
      click("c1", t0 + 100, "m-check", mimecast), click("c2", t0 + 102, "m-check", "24.5.9.1"),
      // A gateway's sandbox in AWS checking the link (Trend Micro's relay sits in AWS), then the person.
      click("a1", t0 + 150, "m-cloud-check", "18.208.22.10"), click("a2", t0 + 153, "m-cloud-check", "24.5.9.2"),
      // A person behind Mimecast's isolation: one click from its space, nobody after it.
      click("i1", t0 + 200, "m-isolation", mimecast),
      // Internet Explorer from Proofpoint's space: a browser no person runs any more.
      click("e1", t0 + 300, "m-ie", proofpoint, ie11),
      // One Azure address: a current Chrome first, then a pinned old one that gives the sandbox away; another
      // Azure address on the same message ten minutes after delivery (a person on a cloud desktop) is not joined to it.
      { ...click("s1", t0 + 400, "m-sandbox", "20.124.68.236"), message_ts: t0 - 200 }, { ...click("s2", t0 + 401, "m-sandbox", "20.124.68.236", chrome97), message_ts: t0 - 200 },
      { ...click("s3", t0 + 402, "m-sandbox", "20.124.68.237"), message_ts: t0 - 200 },
      // Two Azure addresses on two links of an undated message two seconds apart, a current Chrome each: one sandbox
      // spread over its cloud, a link per address; the same two seconds apart from one address are a person's two tabs.
      click("w1", t0 + 450, "m-cloud-spread", "20.85.127.57"), click("w2", t0 + 452, "m-cloud-spread", "52.146.45.252"),
      click("t1", t0 + 460, "m-tabs", "20.85.127.58"), click("t2", t0 + 462, "m-tabs", "20.85.127.58"),
      // Proofpoint's space half an hour after delivery: one current-browser fetch alone could be a person behind its
      // isolation, but the same network's Internet Explorer fetch of the message 40 s later shows its sandbox.
      click("p1", t0 + 700, "m-vendor-sandbox", proofpoint), click("p2", t0 + 740, "m-vendor-sandbox", "148.163.130.6", ie11),
      // Defender's detonation: three links within seconds from three Azure addresses, a pinned Chrome build each,
      // all of them the sandbox's; a person on an Azure desktop clicking one of them half a minute later stays a person.
      { ...click("z1", t0 + 800, "m-spread", "20.115.193.1", chrome97), url: "https://shop.test/a" },
      { ...click("z2", t0 + 802, "m-spread", "40.79.191.184", CHROME.replace(/Chrome\/[\d.]+/, "Chrome/130.0.0.0")), url: "https://shop.test/b" },
      { ...click("z3", t0 + 804, "m-spread", "20.43.115.84", CHROME.replace(/Chrome\/[\d.]+/, "Chrome/129.0.0.0")), url: "https://shop.test/c" },
      { ...click("z4", t0 + 834, "m-spread", "20.42.17.9"), url: "https://shop.test/a" },
      // A check after the person's click: Defender from Azure 12 s after it (resend/resend-node#901); an Azure click
      // one second after a person's is left alone, as it may be that person's own on a cloud desktop.
      click("d1", t0 + 900, "m-late-check", "24.5.9.3"), click("d2", t0 + 912, "m-late-check", "20.119.87.243"),
      click("n1", t0 + 1000, "m-own", "24.5.9.4"), click("n2", t0 + 1001, "m-own", "20.42.17.10"),
      // Safe Links spreading one message's links over Exchange Online's space and Azure's, one browser build: the
      // Azure fetch a second after Microsoft's is the scanner's; another Azure address with another build is not.
      // (Ten minutes after delivery, so that the two Azure addresses are not joined as one sandbox spread over them.)
      { ...click("x1", t0 + 1100, "m-companion", "40.94.29.235"), message_ts: t0 + 500 }, { ...click("x2", t0 + 1101, "m-companion", "20.119.19.195"), message_ts: t0 + 500 },
      { ...click("x3", t0 + 1102, "m-companion", "20.119.19.196", linux), message_ts: t0 + 500 },
      // Googlebot's and Cisco's published space: machines whatever they send.
      click("g1", t0 + 500, "m-crawler", "66.249.66.1"), click("k1", t0 + 600, "m-cisco", "68.232.141.245"),
    ];
    expect((await post({ events, webhook_url: receiver.url })).status).toBe(200);
    const pushes = await receiver.waitFor((r) => r.length > seen);
    const verdicts = Object.fromEntries((pushes[seen]!.json as { events: { event_id: string; is_bot: boolean }[] }).events.map((e) => [e.event_id, e.is_bot]));
    expect(verdicts).toEqual({ v1: true, v2: true, c1: true, c2: false, a1: true, a2: false, i1: false, e1: true, s1: true, s2: true, s3: false, w1: true, w2: true, t1: false, t2: false, p1: true, p2: true, z1: true, z2: true, z3: true, z4: false, d1: false, d2: true, n1: false, n2: false, x1: true, x2: true, x3: false, g1: true, k1: true });
  });

  test("a hit on the message's hidden link counts as one of its links for the client's clicks of any recipient", async () => {
    const t0 = Math.floor(Date.now() / 1000);
    const ip = "24.77.88.99";
    const hit = await fetch(`${env.base}/example.com/m-hidden/hclick`, { headers: { "user-agent": CHROME, "x-forwarded-for": ip } });
    expect(hit.status).toBe(200);
    const event = (id: string, message: string, deliveredAgo: number) =>
      ({ ip, uas: CHROME, event_id: id, action: "click", ts: t0, message_ts: t0 - deliveredAgo, message_id: message, recipient_id: "rcpt-1" });
    const seen = receiver.received.length;
    expect((await post({ events: [event("h1", "m-hidden", 120), event("h2", "m-elsewhere", 172_800)], webhook_url: receiver.url })).status).toBe(200);
    const pushes = await receiver.waitFor((r) => r.length > seen);
    const verdicts = (pushes[seen]!.json as { events: { event_id: string; is_bot: boolean }[] }).events.map((e) => [e.event_id, e.is_bot]);
    // The hidden link and the click: two links of m-hidden within a second. The same client on another message: only the honeypot memory, uncorroborated.
    expect(verdicts).toEqual([["h1", true], ["h2", false]]);
  });

  test("single-interaction mode never answers before one second and can be fetched by request id", async () => {
    const started = Date.now();
    const res = await post({ events: [{ uas: CHROME, action: "open" }] });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(typeof body.is_bot).toBe("boolean");
    const again = await env.call(`/example.com/bot/${body.request_id}`);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ is_bot: body.is_bot, request: { uas: CHROME, action: "open" } });
  });

  test("a result is readable only through its own domain, whatever key knows the request id", async () => {
    const body = await (await post({ events: [{ uas: CHROME, action: "open" }] })).json();
    await env.t.app.domains.set("other.test", { botDetection: true });
    const elsewhere = await env.call(`/other.test/bot/${body.request_id}`, { key: env.otherKey });
    expect(elsewhere.status).toBe(404);
    expect((await env.call(`/example.com/bot/${body.request_id}`)).status).toBe(200);
  });

  test("an unknown request id answers 404 with message and status", async () => {
    const res = await env.call("/example.com/bot/nope");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ status: 404 });
  });

  test("401 without a valid key, 402 when the domain has no bot detection, 400 for malformed requests", async () => {
    expect((await post({ events: [] }, "sk.wrong.key")).status).toBe(401);
    await env.t.app.domains.set("other.test", { botDetection: false });
    const off = await post({ events: [{ ip: "1.2.3.4", uas: "x", event_id: "a" }], webhook_url: receiver.url }, undefined, "other.test");
    expect(off.status).toBe(402);
    expect(await off.json()).toMatchObject({ status: 402 });
    expect((await post({ events: "nope" })).status).toBe(400);
    expect((await post({ events: [{ ip: "1.2.3.4", event_id: "a" }, { uas: "x" }], webhook_url: receiver.url })).status).toBe(400);
    const tooMany = Array.from({ length: 501 }, (_, i) => ({ ip: "1.2.3.4", uas: "x", event_id: String(i) }));
    expect((await post({ events: tooMany, webhook_url: receiver.url })).status).toBe(400);
  });

  test("a domain key cannot use another domain's bot endpoint", async () => {
    const res = await post({ events: [{ ip: "1.2.3.4", uas: "x", event_id: "a" }], webhook_url: receiver.url }, env.otherKey);
    expect([403, 404]).toContain(res.status);
  });

  test("POST /webhook verifies a payload's signature", async () => {
    const key = (await env.t.app.store.control.getAccount())!.webhookSigningKey;
    const timestamp = "1800000000";
    const token = "abc";
    const signature = createHmac("sha256", key).update(timestamp + token).digest("hex");
    const ok = await env.call("/webhook", { method: "POST", body: JSON.stringify({ signature: { timestamp, token, signature } }), headers: { "content-type": "application/json" } });
    expect(await ok.json()).toMatchObject({ valid: true });
    const bad = await env.call("/webhook", { method: "POST", body: JSON.stringify({ signature: { timestamp, token, signature: "ü".repeat(64) } }), headers: { "content-type": "application/json" } });
    expect(bad.status).toBe(200);
    expect(await bad.json()).toMatchObject({ valid: false });
  });
  test("POST /webhook with a domain key verifies with that domain's key, not another's", async () => {
    const mine = await env.t.app.events.keys.forDomain("other.test");
    const theirs = await env.t.app.events.keys.forDomain("example.com");
    expect(mine).not.toBe(theirs);
    const sign = (key: string) => ({ timestamp: "1800000000", token: "abc", signature: createHmac("sha256", key).update("1800000000abc").digest("hex") });
    const check = async (key: string) => (await (await env.call("/webhook", { method: "POST", key: env.otherKey,
      body: JSON.stringify({ signature: sign(key) }), headers: { "content-type": "application/json" } })).json()).valid;
    expect(await check(mine)).toBe(true);
    expect(await check(theirs)).toBe(false);
  });
  test("POST /webhook with a tenant's account key verifies with that tenant's key, never the installation's", async () => {
    const tenant = await env.t.app.tenants.add("verifier");
    const other = await env.t.app.tenants.add("verifier-2");
    const key = (await env.t.app.access.createKey({ kind: "account", tenant: tenant.id })).key;
    const sign = (k: string) => ({ timestamp: "1800000000", token: "abc", signature: createHmac("sha256", k).update("1800000000abc").digest("hex") });
    const check = async (k: string, headers: Record<string, string> = {}) => (await (await env.call("/webhook", { method: "POST", key,
      body: JSON.stringify({ signature: sign(k) }), headers: { "content-type": "application/json", ...headers } })).json()).valid;
    const installation = (await env.t.app.store.control.getAccount())!.webhookSigningKey;
    const own = await env.t.app.events.keys.forTenant(tenant.id);
    expect(own).not.toBe(installation);
    expect(await check(own)).toBe(true);
    expect(await check(installation)).toBe(false);
    expect(await check(await env.t.app.events.keys.forTenant(other.id))).toBe(false);
    // The primary's key acting for the tenant verifies with the tenant's key too.
    const primary = async (k: string) => (await (await env.call("/webhook", { method: "POST", headers: { "content-type": "application/json", "x-postern-tenant": "verifier" },
      body: JSON.stringify({ signature: sign(k) }) })).json()).valid;
    expect(await primary(own)).toBe(true);
    expect(await primary(installation)).toBe(false);
  });
  test("POST /webhook naming a domain verifies only with a domain the key may use: another tenant's is a 404", async () => {
    const acme = await env.t.app.tenants.add("acme");
    const beta = await env.t.app.tenants.add("beta");
    await env.t.app.domains.add("acme.test", { tenant: acme.id });
    await env.t.app.domains.add("beta.test", { tenant: beta.id });
    const acmeKey = (await env.t.app.access.createKey({ kind: "account", tenant: acme.id })).key;
    const sign = async (domain: string) => {
      const key = await env.t.app.events.keys.forDomain(domain);
      return { timestamp: "1800000000", token: "abc", signature: createHmac("sha256", key).update("1800000000abc").digest("hex") };
    };
    const check = async (domain: string, key: string, tenant?: string) => env.call("/webhook", { method: "POST", key,
      body: JSON.stringify({ domain, signature: await sign(domain) }), headers: { "content-type": "application/json", ...(tenant ? { "x-postern-tenant": tenant } : {}) } });
    const own = await check("acme.test", acmeKey);
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({ valid: true });
    const other = await check("beta.test", acmeKey);
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ message: "Domain not found: beta.test", status: 404 });
    // A domain key names only its own domain; the primary key a tenant's once it acts for that tenant.
    expect((await check("example.com", env.otherKey)).status).toBe(404);
    expect((await check("beta.test", env.t.accountKey)).status).toBe(404);
    expect(await (await check("beta.test", env.t.accountKey, "beta")).json()).toMatchObject({ valid: true });
  });
});

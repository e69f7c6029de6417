import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { failure, startSpEnv, type SpEnv } from "./setup.ts";

interface Hit { path: string; headers: Record<string, string>; body: string }

let env: SpEnv;
let receiver: ReturnType<typeof Bun.serve>;
const hits: Hit[] = [];
let base = "";

beforeAll(async () => {
  env = await startSpEnv();
  // The webhook receiver: /fail answers 500, /token is an OAuth2 token endpoint, the rest 200.
  receiver = Bun.serve({
    hostname: "127.0.0.1", port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      const body = await req.text();
      hits.push({ path, headers: Object.fromEntries(req.headers), body });
      if (path === "/fail") return new Response("nope", { status: 500, headers: { "content-type": "text/plain" } });
      if (path === "/token") return Response.json({ access_token: "tok123", expires_in: 3600 });
      return new Response("OK", { headers: { "content-type": "text/plain" } });
    },
  });
  base = `http://127.0.0.1:${receiver.port}`;
});
afterAll(async () => { await receiver.stop(true); await env.close(); });

const lastHit = (path: string) => hits.filter((h) => h.path === path).at(-1)!;

describe("webhooks through the sparkpost client", () => {
  let id = "";

  test("create tests the target with [{msys:{}}] (auth and custom headers included), then stores it", async () => {
    const res = await env.account.webhooks.create({
      name: "Ops", target: `${base}/hook`, events: ["delivery", "bounce", "click"], auth_type: "basic",
      auth_credentials: { username: "u", password: "p" }, custom_headers: { "X-Custom": "yes" },
    });
    id = res.results.id;
    expect(res.results.links).toEqual([{ href: `/api/v1/webhooks/${id}`, rel: "urn.msys.webhooks.webhook", method: ["GET", "PUT"] }]);
    const hit = lastHit("/hook");
    expect(JSON.parse(hit.body)).toEqual([{ msys: {} }]);
    expect(hit.headers).toMatchObject({ "content-type": "application/json", "x-custom": "yes", authorization: `Basic ${btoa("u:p")}` });
    expect(hit.headers["x-messagesystems-batch-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const stored = (await env.t.app.webhooks.list(null)).find((w) => w.id === id)!;
    expect(stored).toMatchObject({ format: "sparkpost", domainId: null, url: `${base}/hook`, events: ["delivered", "failed", "clicked"] });
    expect(stored.extra).toMatchObject({ name: "Ops", events: ["delivery", "bounce", "click"], auth_type: "basic", active: true });
  });

  test("list and get show SparkPost's webhook object (get without id)", async () => {
    const list = await env.account.webhooks.list({ timezone: "UTC" });
    expect(list.results.find((w: { id: string }) => w.id === id)).toMatchObject({ name: "Ops", target: `${base}/hook`, events: ["delivery", "bounce", "click"], active: true });
    const got = await env.account.webhooks.get(id, { timezone: "UTC" });
    expect(got.results.id).toBeUndefined();
    expect(got.results).toMatchObject({ name: "Ops", auth_type: "basic", custom_headers: { "X-Custom": "yes" } });
    expect(got.results.links.map((l: { rel: string }) => l.rel)).toEqual(["urn.msys.webhooks.validate", "urn.msys.webhooks.batches"]);
  });

  test("update changes fields, re-tests a new target, and keeps the rest", async () => {
    const before = hits.length;
    const res = await env.account.webhooks.update(id, { id, name: "Ops 2", target: `${base}/hook2`, events: ["open"] });
    expect(res.results).toEqual({ id, links: [{ href: `/api/v1/webhooks/${id}/validate`, rel: "urn.msys.webhooks.validate", method: ["POST"] }] });
    expect(hits.slice(before).map((h) => h.path)).toEqual(["/hook2"]);
    const got = await env.account.webhooks.get(id);
    expect(got.results).toMatchObject({ name: "Ops 2", target: `${base}/hook2`, events: ["open"], auth_type: "basic" });
    const failed = await failure(env.account.webhooks.update(id, { target: `${base}/fail` }));
    expect(failed.statusCode).toBe(400);
    expect((await env.account.webhooks.get(id)).results.target).toBe(`${base}/hook2`);
  });

  test("validate posts the client's message and reports the answer", async () => {
    const res = await env.account.webhooks.validate(id, { message: { msys: {} } });
    expect(res.results).toMatchObject({ msg: "Test POST to endpoint succeeded", response: { status: 200, body: "OK" } });
    expect(JSON.parse(lastHit("/hook2").body)).toEqual({ msys: {} });
    const bare = await env.call("POST", `/api/v1/webhooks/${id}/validate`, env.t.accountKey, [{ msys: {} }]);
    expect(bare.status).toBe(200);
    expect(JSON.parse(lastHit("/hook2").body)).toEqual([{ msys: {} }]);
  });

  test("batch status, documentation and samples answer in SparkPost's shapes", async () => {
    expect((await env.account.webhooks.getBatchStatus(id, { limit: 10 })).results).toEqual([]);
    const doc = await env.account.webhooks.getDocumentation();
    expect(Object.keys(doc.results.message_event.events)).toContain("delivery");
    const samples = await env.account.webhooks.getSamples({ events: "bounce" });
    expect(samples.results).toHaveLength(1);
    expect(samples.results[0].msys.message_event).toMatchObject({ type: "bounce", bounce_class: "10" });
  });

  test("delete answers 204; then get is 404", async () => {
    expect(await env.account.webhooks.delete(id)).toBe("");
    expect((await failure(env.account.webhooks.get(id))).statusCode).toBe(404);
  });

  test("oauth2 fetches a token first and sends it as Bearer", async () => {
    const res = await env.account.webhooks.create({ name: "oauth", target: `${base}/oauth-hook`, events: ["delivery"], auth_type: "oauth2",
      auth_request_details: { url: `${base}/token`, body: { client_id: "c", client_secret: "s" } } });
    expect(res.results.id).toBeString();
    expect(lastHit("/token").body).toBe("client_id=c&client_secret=s");
    expect(lastHit("/oauth-hook").headers.authorization).toBe("Bearer tok123");
  });
});

describe("webhook errors and scope", () => {
  test("a failing target refuses the create with SparkPost's 400 and stores nothing", async () => {
    const count = (await env.t.app.webhooks.list(null)).length;
    const err = await failure(env.account.webhooks.create({ name: "bad", target: `${base}/fail`, events: ["delivery"] }));
    expect(err.statusCode).toBe(400);
    expect(err.errors[0]).toMatchObject({ code: 400, message: "POST to webhook tokens URL failed", response: { status: 500, body: "nope" } });
    expect((await env.t.app.webhooks.list(null)).length).toBe(count);
  });

  test("missing fields and unknown events are refused", async () => {
    expect((await failure(env.account.webhooks.create({ target: `${base}/hook`, events: ["delivery"] }))).errors[0]!.code).toBe("1400");
    expect((await failure(env.account.webhooks.create({ name: "n", target: `${base}/hook`, events: ["teleport"] }))).statusCode).toBe(422);
    expect((await failure(env.account.webhooks.create({ name: "n", target: `${base}/hook`, events: ["relay_delivery"] }))).statusCode).toBe(422);
    expect((await failure(env.account.webhooks.create({ name: "n", target: "ftp://x.test/", events: ["delivery"] }))).statusCode).toBe(422);
  });

  test("a domain key's webhooks belong to its domain; account-wide ones (and their credentials) stay out of its sight", async () => {
    const acct = await env.account.webhooks.create({ name: "all", target: `${base}/all`, events: ["delivery"], auth_token: "account-secret" });
    const own = await env.domain.webhooks.create({ name: "mine", target: `${base}/mine`, events: ["open"] });
    const domainId = (await env.t.app.domains.get("example.com"))!.id;
    expect((await env.t.app.webhooks.list(null)).find((w) => w.id === own.results.id)!.domainId).toBe(domainId);
    const listed = await env.domain.webhooks.list();
    expect(listed.results.map((w: { id: string }) => w.id)).toEqual([own.results.id]);
    expect(JSON.stringify(listed)).not.toContain("account-secret");
    expect((await failure(env.domain.webhooks.get(acct.results.id))).statusCode).toBe(404);
    expect((await failure(env.domain.webhooks.delete(acct.results.id))).statusCode).toBe(404);
    expect(await env.domain.webhooks.delete(own.results.id)).toBe("");
  });

  test("the spec's /{domain}/webhooks path scopes a webhook to that domain", async () => {
    const res = await env.account.post({ uri: "example.com/webhooks", json: { name: "path", target: `${base}/path`, events: ["delivery"] } });
    const domainId = (await env.t.app.domains.get("example.com"))!.id;
    expect((await env.t.app.webhooks.list(null)).find((w) => w.id === res.results.id)!.domainId).toBe(domainId);
    expect((await env.account.get({ uri: `example.com/webhooks/${res.results.id}` })).results.name).toBe("path");
    expect((await failure(env.domain.get({ uri: "other.test/webhooks" }))).statusCode).toBe(403);
  });
});

describe("event delivery to SparkPost webhooks", () => {
  test("events go to webhooks by SparkPost type, with transmission_id and campaign_id; inactive ones get nothing", async () => {
    await env.account.webhooks.create({ name: "inj", target: `${base}/injection`, events: ["injection"] });
    await env.account.webhooks.create({ name: "off", target: `${base}/inactive`, events: ["injection"], active: false });
    await env.account.webhooks.create({ name: "pol", target: `${base}/policy`, events: ["policy_rejection"] });
    const sent = await env.domain.transmissions.send({ campaign_id: "hooks", recipients: [{ address: "hooked@dest.test" }],
      content: { from: "news@example.com", subject: "s", text: "t" } });
    const deadline = Date.now() + 15_000;
    const injections = () => hits.filter((h) => h.path === "/injection" && h.body.includes("hooked@dest.test"));
    while (!injections().length && Date.now() < deadline) await Bun.sleep(50);
    const batch = JSON.parse(injections()[0]!.body) as { msys: { message_event: Record<string, unknown> } }[];
    expect(batch[0]!.msys.message_event).toMatchObject({ type: "injection", rcpt_to: "hooked@dest.test", transmission_id: sent.results.id, campaign_id: "hooks" });
    await Bun.sleep(500);
    expect(hits.filter((h) => h.path === "/inactive" && h.body.includes("hooked@dest.test"))).toEqual([]);
    expect(hits.filter((h) => h.path === "/policy" && h.body.includes("hooked@dest.test"))).toEqual([]);
  });
});

describe("private targets", () => {
  test("loopback targets are refused unless webhooks.allow_private is on", async () => {
    const strict = await startSpEnv({ allowPrivate: false });
    try {
      const err = await failure(strict.account.webhooks.create({ name: "n", target: `${base}/hook`, events: ["delivery"] }));
      expect(err.statusCode).toBe(400);
      expect(err.errors[0]!.description).toContain("allow_private");
    } finally { await strict.close(); }
  });

  test("a hostname that resolves to a private address is refused too, and so is an OAuth token URL", async () => {
    const strict = await startSpEnv({ allowPrivate: false, dns: { "hooks.inside.test": { a: ["10.1.2.3"] }, "hooks.public.test": { a: ["93.184.216.34"] } } });
    try {
      const err = await failure(strict.account.webhooks.create({ name: "n", target: "https://hooks.inside.test/hook", events: ["delivery"] }));
      expect(err.statusCode).toBe(400);
      expect(err.errors[0]!.description).toContain("10.1.2.3");
      // The token URL is refused before anything is sent, so the public target is never contacted.
      const tokenHits = hits.filter((h) => h.path === "/token").length;
      const oauth = await failure(strict.account.webhooks.create({ name: "o", target: "https://hooks.public.test/hook", events: ["delivery"],
        auth_type: "oauth2", auth_request_details: { url: `${base}/token`, body: {} } }));
      expect(oauth.statusCode).toBe(400);
      expect(JSON.stringify(oauth.errors[0])).toContain("refused");
      expect(hits.filter((h) => h.path === "/token")).toHaveLength(tokenHits);
    } finally { await strict.close(); }
  });
});

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHmac } from "node:crypto";
import { form, startNative, type NativeEnv } from "./setup.ts";

interface Receiver { url: string; bodies: unknown[]; stop(): void }

function startReceiver(status: number): Receiver {
  const bodies: unknown[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1", port: 0,
    async fetch(req) { bodies.push(await req.json().catch(() => null)); return new Response("ok", { status }); },
  });
  return { url: `http://127.0.0.1:${server.port}/hook`, bodies, stop: () => server.stop(true) };
}

setDefaultTimeout(60_000);

let env: NativeEnv;
let ok: Receiver;
let ok2: Receiver;
let failing: Receiver;
let signingKey: string;
beforeAll(async () => {
  env = await startNative();
  [ok, ok2, failing] = [startReceiver(200), startReceiver(204), startReceiver(500)];
  signingKey = await env.t.app.events.keys.forDomain("example.com");
});
afterAll(async () => { ok.stop(); ok2.stop(); failing.stop(); await env.close(); });

const create = (id: string, urls: string[], opts: { domain?: string; key?: string } = {}) =>
  env.call(`/domains/${opts.domain ?? "example.com"}/webhooks`, { method: "POST", key: opts.key,
    body: form([["id", id], ...urls.map((u): [string, string] => ["url", u])]) });

const nativeTargets = async () => {
  const d = await env.t.app.domains.get("example.com");
  return (await env.t.app.webhooks.list(d!.id)).filter((w) => w.format === "mailgun");
};

const verifies = (s: { signature: string; timestamp: number; token: string }) =>
  createHmac("sha256", signingKey).update(`${s.timestamp}${s.token}`).digest("hex") === s.signature;

describe("POST /domains/{domain}/webhooks", () => {
  test("refuses opened and clicked webhooks while the domain does not track them", async () => {
    const res = await create("clicked", [ok.url]);
    expect(res.status).toBe(400);
    expect((await res.json()).message).toContain("click tracking");
  });

  test("posts a signed sample to every URL, then stores one Mailgun-format target per URL (shared with the Mailgun API)", async () => {
    await env.t.app.domains.set("example.com", { clickTracking: true });
    const res = await create("clicked", [ok.url, ok2.url]);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: "Webhook has been created", webhook: { urls: [ok.url, ok2.url] } });
    const posted = ok.bodies.at(-1) as { "event-data": { event: string; recipient: string }; signature: { signature: string; timestamp: number; token: string } };
    expect(posted["event-data"]).toMatchObject({ event: "clicked", recipient: "alice@example.org" });
    expect(verifies(posted.signature)).toBe(true);
    expect(ok2.bodies).toHaveLength(1);
    const targets = await nativeTargets();
    expect(targets.map((w) => [w.url, w.events, w.extra.mailgunId]).sort()).toEqual([[ok.url, ["clicked"], "clicked"], [ok2.url, ["clicked"], "clicked"]].sort());
  });

  test("replaces the URLs of a type when it is created again; maps Mailgun type names to event types", async () => {
    expect((await create("clicked", [ok2.url])).status).toBe(200);
    expect((await create("permanent_fail", [ok.url])).status).toBe(200);
    const targets = await nativeTargets();
    expect(targets.map((w) => [w.extra.mailgunId, w.url, w.events[0]]).sort()).toEqual([["clicked", ok2.url, "clicked"], ["permanent_fail", ok.url, "failed"]].sort());
  });

  test("refuses with 402 and an errors list when an endpoint fails, storing nothing", async () => {
    const res = await create("delivered", [ok.url, failing.url]);
    expect(res.status).toBe(402);
    const body = await res.json();
    expect(body).toMatchObject({ status: 402, errors: [expect.stringContaining(`${failing.url}: the endpoint answered HTTP 500`)] });
    expect(failing.bodies).toHaveLength(1);
    expect((await nativeTargets()).some((w) => w.extra.mailgunId === "delivered")).toBe(false);
  });

  test("refuses with 402 when an endpoint cannot be reached", async () => {
    const gone = startReceiver(200);
    gone.stop();
    const res = await create("delivered", [gone.url]);
    expect(res.status).toBe(402);
    expect((await res.json()).errors[0]).toContain("could not be reached");
  });

  test("answers 400 for more than 3 URLs, no URL, a non-http URL or an unknown type", async () => {
    const cases: [string, string[], string][] = [
      ["delivered", [ok.url, ok.url + "1", ok.url + "2", ok.url + "3"], "at most 3 url values"],
      ["delivered", [], "url is required"],
      ["delivered", ["ftp://x.test/"], "only http and https"],
      ["bounced-ish", [ok.url], "unknown webhook type"],
    ];
    for (const [id, urls, text] of cases) {
      const res = await create(id, urls);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toContain(text);
    }
  });

  test("is scoped: 404 for a domain the key may not see", async () => {
    expect((await create("delivered", [ok.url], { key: env.otherKey })).status).toBe(404);
    expect((await create("delivered", [ok.url], { key: env.otherKey, domain: "other.test" })).status).toBe(200);
  });
});

describe("DELETE /domains/{domain}/webhooks/{type}", () => {
  test("removes every URL of the type, then answers 402 when nothing is left to delete", async () => {
    const res = await env.call("/domains/example.com/webhooks/clicked", { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: "Webhook has been deleted", webhook: { urls: [ok2.url] } });
    expect((await nativeTargets()).some((w) => w.extra.mailgunId === "clicked")).toBe(false);
    const again = await env.call("/domains/example.com/webhooks/clicked", { method: "DELETE" });
    expect(again.status).toBe(402);
    expect(await again.json()).toEqual({ message: "No clicked webhook to delete for example.com", status: 402 });
  });

  test("is scoped and checks the type", async () => {
    expect((await env.call("/domains/example.com/webhooks/permanent_fail", { method: "DELETE", key: env.otherKey })).status).toBe(404);
    expect((await env.call("/domains/example.com/webhooks/nonsense", { method: "DELETE" })).status).toBe(400);
  });
});

describe("GET /domains/{domain}/webhooks/{type}/sample", () => {
  test("answers an array of signed samples in the spec's shape", async () => {
    const res = await env.call("/domains/example.com/webhooks/delivered/sample", { key: env.t.domainKey });
    expect(res.status).toBe(200);
    const items = await res.json();
    expect(items).toHaveLength(1);
    const [{ "event-data": data, signature }] = items;
    expect(data["delivery-status"]).toEqual({ code: 250, description: "", message: ["250 2.0.0 OK"], "mx-host": expect.any(String),
      "mx-ip": expect.any(String), tls: true });
    expect(Object.keys(data.envelope).sort()).toEqual(["sender", "sending-ip", "targets", "transport"]);
    expect(Object.keys(data.message.headers)).toEqual(expect.arrayContaining(["date", "from", "subject", "to", "x-mailer", "x-testid"]));
    expect(Number.isInteger(data.message.size)).toBe(true);
    expect(data).toMatchObject({ recipient: "alice@example.org", "recipient-domain": "example.org", tags: expect.any(Array) });
    expect(data.envelope.sender).toEndWith("@example.com");
    expect(Number.isInteger(data.timestamp) && signature.timestamp === data.timestamp).toBe(true);
    expect(verifies(signature)).toBe(true);
  });

  test("answers a permanent failure sample with a 5xx delivery status, and 404 out of scope", async () => {
    const [{ "event-data": data }] = await (await env.call("/domains/example.com/webhooks/permanent_fail/sample")).json();
    expect(data["delivery-status"].code).toBe(550);
    expect((await env.call("/domains/example.com/webhooks/delivered/sample", { key: env.otherKey })).status).toBe(404);
  });
});

describe("per-domain signing keys", () => {
  test("a domain's sample does not verify with another domain's key, and each domain key sees its own key", async () => {
    const other = (await (await env.call("/domains/other.test/webhooks/signing-key", { key: env.otherKey })).json()).signing_key;
    const mine = (await (await env.call("/domains/example.com/webhooks/signing-key", { key: env.t.domainKey })).json()).signing_key;
    expect(mine).toBe(signingKey);
    expect(other).toMatch(/^[0-9a-f]{48}$/);
    expect(other).not.toBe(mine);
    expect(other).not.toBe((await env.t.app.store.control.getAccount())!.webhookSigningKey);
    expect((await env.call("/domains/example.com/webhooks/signing-key", { key: env.otherKey })).status).toBe(404);
    // A key of other.test holding example.com's sample cannot make other.test's receivers accept it.
    const [{ signature }] = await (await env.call("/domains/example.com/webhooks/delivered/sample", { key: env.t.domainKey })).json();
    expect(createHmac("sha256", other).update(`${signature.timestamp}${signature.token}`).digest("hex")).not.toBe(signature.signature);
    expect(verifies(signature)).toBe(true);
  });
});

describe("private webhook targets", () => {
  test("are refused with the problem listed when webhooks.allow_private is off", async () => {
    const strict = await startNative({ allowPrivate: false });
    try {
      const res = await strict.call("/domains/example.com/webhooks", { method: "POST", body: form([["id", "delivered"], ["url", ok.url]]) });
      expect(res.status).toBe(400);
      expect((await res.json()).errors[0]).toContain("webhooks.allow_private is off");
    } finally {
      await strict.close();
    }
  });
});

describe("one set of webhooks for the native and Mailgun APIs", () => {
  test("a webhook created through the native API is listed by the Mailgun API", async () => {
    const receiver = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("ok") });
    try {
      const body = new FormData();
      body.append("id", "delivered");
      body.append("url", `http://127.0.0.1:${receiver.port}/shared`);
      expect((await env.call("/domains/example.com/webhooks", { method: "POST", body })).status).toBe(200);
      const res = await env.t.app.http(new Request("http://localhost/v3/domains/example.com/webhooks",
        { headers: { authorization: `Basic ${btoa(`api:${env.t.accountKey}`)}` } }));
      expect(((await res.json()) as { webhooks: { delivered: { urls: string[] } } }).webhooks.delivered.urls).toContain(`http://127.0.0.1:${receiver.port}/shared`);
    } finally {
      receiver.stop(true);
    }
  });
});

test("a tenant's domain may not watch the installation's egress addresses (ip_* types: 403); its domain notices are its own", async () => {
  const t = await env.t.app.tenants.add("hooks-tenant");
  await env.t.app.domains.add("hooks-tenant.test", { tenant: t.id });
  const key = (await env.t.app.access.createKey({ kind: "account", tenant: t.id })).key;
  const refused = await create("ip_listed", [ok.url], { domain: "hooks-tenant.test", key });
  expect(refused.status).toBe(403);
  expect(await refused.json()).toMatchObject({ status: 403 });
  expect((await create("ip_delisted", [ok.url], { domain: "hooks-tenant.test", key })).status).toBe(403);
  expect((await create("domain_listed", [ok.url], { domain: "hooks-tenant.test", key })).status).toBe(200);
  // The primary's own domains keep the egress types.
  expect((await create("ip_listed", [ok.url])).status).toBe(200);
  expect((await env.call("/domains/example.com/webhooks/ip_listed", { method: "DELETE" })).status).toBe(200);
});

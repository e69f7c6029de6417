// Webhook egress through the real app: a name that rebinds to 127.0.0.1 after the check never
// reaches an internal service (SparkPost validate, whose answer would come back to the caller);
// OAuth tokens are per target and credentials (domain A's webhook never gets domain B's token);
// webhook URLs with user:password@ are never logged.
import { afterEach, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { startSink, type Sink } from "../helpers/smtp-sink.ts";
import { startReceiver } from "../helpers/receiver.ts";
import { createMockResolver, type Resolver } from "../../src/dns.ts";
import { createLogger } from "../../src/log.ts";
import type { Principal } from "../../src/core/model.ts";

let t: TestApp | null = null;
let sink: Sink | null = null;
const stops: (() => void)[] = [];
afterEach(async () => { await t?.close(); await sink?.close(); stops.splice(0).forEach((s) => s()); t = null; sink = null; });

describe("webhook egress", () => {
  test("SparkPost validate of a name rebinding to 127.0.0.1 never reaches the internal service", async () => {
    const hits: string[] = [];
    const internal = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => { hits.push(req.url); return new Response("internal secret"); } });
    stops.push(() => internal.stop(true));
    const base = createMockResolver({});
    let calls = 0;
    // Public for the first look-up, loopback for every later one.
    const resolver: Resolver = { ...base, a: async (n) => (n === "rebind.test" ? (calls++ === 0 ? ["192.0.2.1"] : ["127.0.0.1"]) : base.a(n)), aaaa: async () => [] };
    t = await makeTestApp({ resolver, toml: `[webhooks]\ntimeout = "1s"\n` });
    const target = await t.app.webhooks.create({ domainId: null, events: [], url: `http://rebind.test:${internal.port}/x`, format: "sparkpost", extra: {} });
    const res = await t.app.http(new Request(`http://127.0.0.1/api/v1/webhooks/${target.id}/validate`, { method: "POST",
      headers: { authorization: t.accountKey, "content-type": "application/json" }, body: "{}" }), "127.0.0.1");
    const text = await res.text();
    expect(res.status).toBe(400);
    expect(text).not.toContain("internal secret");
    expect(hits).toHaveLength(0);
  }, 20_000);

  test("two domains' SparkPost webhooks with one token URL and client id each get their own OAuth token", async () => {
    sink = await startSink();
    const tokenRequests: string[] = [];
    const tokens = Bun.serve({ hostname: "127.0.0.1", port: 0, async fetch(req) {
      const form = new URLSearchParams(await req.text());
      tokenRequests.push(form.get("client_secret") ?? "");
      return Response.json({ access_token: `token-of-${form.get("client_secret")}`, expires_in: 3600 });
    } });
    stops.push(() => tokens.stop(true));
    t = await makeTestApp({ toml: `[webhooks]\nallow_private = true\nretry = ["200ms"]\n[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n` });
    await t.app.start();
    await t.app.domains.add("b.test");
    await t.app.domains.verify("b.test", true);
    const receivers = { "example.com": startReceiver(), "b.test": startReceiver() };
    stops.push(receivers["example.com"].stop, receivers["b.test"].stop);
    for (const [name, secret] of [["example.com", "secret-a"], ["b.test", "secret-b"]] as const) {
      const d = (await t.app.domains.get(name))!;
      await t.app.webhooks.create({ domainId: d.id, events: ["delivered"], url: receivers[name].url, format: "sparkpost", extra: { auth_type: "oauth2",
        auth_request_details: { url: `http://127.0.0.1:${tokens.port}/token`, body: { client_id: "shared-client", client_secret: secret } } } });
    }
    const account = (await t.app.access.authenticate(t.accountKey)) as Principal;
    for (const domain of ["example.com", "b.test"]) {
      await t.app.sender.send(account, { domain, source: "sparkpost", from: { email: `a@${domain}` }, envelopes: [{ to: [{ email: "x@dest.test" }], subject: "s", text: "t" }] });
      await receivers[domain as keyof typeof receivers].waitFor((r) => r.length >= 1);
    }
    expect(receivers["example.com"].received[0]!.headers.get("authorization")).toBe("Bearer token-of-secret-a");
    expect(receivers["b.test"].received[0]!.headers.get("authorization")).toBe("Bearer token-of-secret-b");
    expect(tokenRequests.sort()).toEqual(["secret-a", "secret-b"]);
  }, 30_000);

  test("a webhook URL's user:password never appears in the logs", async () => {
    sink = await startSink();
    const lines: string[] = [];
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const url = `http://hookuser:hunter2secret@127.0.0.1:${closed.port}/hook`;
    closed.stop(true);
    t = await makeTestApp({ log: createLogger({ level: "debug", write: (l) => lines.push(l) }),
      toml: `[webhooks]\nallow_private = true\nretry = ["200ms"]\nlifetime = "1s"\n[mta.routes]\n"*" = "127.0.0.1:${sink.port}"\n` });
    await t.app.start();
    const d = (await t.app.domains.get("example.com"))!;
    await t.app.webhooks.create({ domainId: d.id, events: ["delivered"], url, format: "mailgun", extra: { mailgunId: "delivered" } });
    const p = (await t.app.access.authenticate(t.domainKey)) as Principal;
    await t.app.sender.send(p, { domain: "example.com", source: "mailgun", from: { email: "a@example.com" }, envelopes: [{ to: [{ email: "x@dest.test" }], subject: "s", text: "t" }] });
    const end = Date.now() + 15_000;
    while (!lines.some((l) => l.includes("given up")) && Date.now() < end) await Bun.sleep(100);
    const given = lines.filter((l) => l.includes("given up"));
    expect(given.length).toBeGreaterThan(0);
    expect(given.join("\n")).toContain("***@127.0.0.1");
    expect(lines.join("\n")).not.toContain("hunter2secret");
  }, 30_000);
});

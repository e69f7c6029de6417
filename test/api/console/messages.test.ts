// The console's message page lists the webhook posts a message's events caused, with their state
// and the target's answer, from the real outbox after a real delivery and a real POST.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startConsole, type ConsoleEnv } from "./setup.ts";

let env: ConsoleEnv;
const hits: string[] = [];
let target: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  target = Bun.serve({ hostname: "127.0.0.1", port: 0, async fetch(req) { hits.push(await req.text()); return new Response("no", { status: 503 }); } });
  env = await startConsole();
  const d = (await env.t.app.domains.get("example.com"))!;
  await env.t.app.webhooks.create({ domainId: d.id, events: [], url: `http://user:secret@127.0.0.1:${target.port}/hook`, format: "sendgrid", extra: {} });
});
afterAll(async () => { await env.close(); target.stop(true); });

test("a message page shows its webhook posts, the target's answer and no URL credentials", async () => {
  const principal = { accountId: 1, keyId: "t", kind: "account" as const, domain: null, grants: [] };
  const r = await env.t.app.sender.send(principal, { domain: "example.com", source: "cli", from: { email: "a@example.com" },
    envelopes: [{ to: [{ email: "r@dest.test" }], subject: "s", text: "x" }] });
  const id = r.messages[0]!.id;
  const c = await env.signIn(env.t.accountKey);
  const end = Date.now() + 20_000;
  let page: any;
  for (;;) {
    page = await (await c.call("GET", `/messages/example.com/${id}`)).json();
    if (page.webhooks?.some((w: any) => w.attempts > 0 && w.events.includes("delivered"))) break;
    if (Date.now() > end) throw new Error(`no attempted post: ${JSON.stringify(page.webhooks)}`);
    await Bun.sleep(100);
  }
  const post = page.webhooks.find((w: any) => w.events.includes("delivered"));
  expect(post).toMatchObject({ format: "sendgrid", status: "pending" });
  expect(post.answer).toContain("503");
  expect(post.url).not.toContain("secret");
  expect(hits.length).toBeGreaterThan(0);
  // The source address, as the sink saw it (the machine's default address here), with the pool.
  expect(page.recipients).toMatchObject([{ email: "r@dest.test", status: "delivered", sourceIp: "127.0.0.1", ipPool: "default" }]);
  expect(page.events.find((e: any) => e.type === "delivered")).toMatchObject({ sendingIp: "127.0.0.1", ipPool: "default" });
  expect(env.sink.messages[0]!.session.remoteAddress?.replace(/^::ffff:/, "")).toBe("127.0.0.1");
  const other = await env.signIn(env.otherKey);
  expect((await other.call("GET", `/messages/example.com/${id}`)).status).toBe(404);
}, 40_000);

test("a tenant's user sees its message's posts to its own targets, not to the primary's every-tenant webhook", async () => {
  const app = env.t.app;
  const acme = await app.tenants.add("acme");
  const d = await app.domains.add("acme.test", { tenant: acme.id });
  await app.domains.verify("acme.test", true);
  // The primary's SparkPost account webhook for every tenant, and acme's own domain webhook.
  await app.webhooks.create({ domainId: null, tenantId: 0, events: [], url: `http://127.0.0.1:${target.port}/primary-every`, format: "sparkpost", extra: { everyTenant: true } });
  await app.webhooks.create({ domainId: d.id, events: [], url: `http://127.0.0.1:${target.port}/acme-own`, format: "sendgrid", extra: {} });
  const principal = { accountId: 1, keyId: "t", kind: "account" as const, domain: null, grants: [], tenant: acme.id };
  const id = (await app.sender.send(principal, { domain: "acme.test", source: "cli", from: { email: "a@acme.test" },
    envelopes: [{ to: [{ email: "t@dest.test" }], subject: "s", text: "x" }] })).messages[0]!.id;
  const end = Date.now() + 20_000;
  while ((await app.activity.webhookPosts("acme.test", id)).length < 2) {
    if (Date.now() > end) throw new Error("the posts were not made");
    await Bun.sleep(100);
  }
  await app.team.users.add(null, { email: "ann@acme.test", role: "analyst", tenant: acme.id, password: "correct horse battery" });
  const ann = await env.signInWith({ email: "ann@acme.test", password: "correct horse battery" });
  const urls = ((await (await ann.call("GET", `/messages/acme.test/${id}`)).json()).webhooks as { url: string }[]).map((w) => new URL(w.url).pathname);
  expect([...new Set(urls)]).toEqual(["/acme-own"]);
});

// Tenant scoping of SparkPost's account-level data through the unchanged official client and its
// X-MSYS-SUBACCOUNT header (docs/tenants.md): templates, recipient lists, inbound domains and relay
// webhooks made for a subaccount are its own; a GET without the header reads the primary's and every
// subaccount's, `0` the primary's only, N subaccount N's; a subaccount's key sees only its own; a
// transmission resolves template_id and list_id within its own tenant (another's is 422 1603).
import { afterAll, beforeAll, expect, test } from "bun:test";
import SparkPost from "sparkpost";
import { failure, startSpEnv, type SpEnv } from "./setup.ts";

let env: SpEnv;
let acmeKey = "";
const GRANTS = ["templates/modify", "transmissions/modify", "recipient_lists/manage", "inbound_domains/manage", "relay_webhooks/modify", "sending_domains/manage"];
beforeAll(async () => {
  env = await startSpEnv();
  acmeKey = (await env.account.subaccounts.create({ name: "acme", key_label: "acme", key_grants: GRANTS })).results.key as string;
  await env.account.subaccounts.create({ name: "beta", setup_api_key: false });
  await as(env.t.accountKey, 1).sendingDomains.create({ domain: "acme.test" });
  await env.t.app.domains.verify("acme.test", true);
});
afterAll(async () => { await env.close(); });

const as = (key: string, subaccount?: number) => new SparkPost(key, { origin: env.origin, ...(subaccount === undefined ? {} : { headers: { "X-MSYS-SUBACCOUNT": String(subaccount) } }) });
const content = (who: string, from: string) => ({ from: { email: from }, subject: `${who} {{n}}`, html: `<p>${who}</p>` });

test("templates: each tenant has its own; reads without the header cover every tenant; sends use only their own tenant's", async () => {
  await env.account.templates.create({ id: "welcome", name: "primary welcome", published: true, content: content("Primary", "a@example.com") });
  await env.account.templates.create({ id: "primary-only", name: "p", published: true, content: content("Primary", "a@example.com") });
  await as(env.t.accountKey, 1).templates.create({ id: "welcome", name: "acme welcome", published: true, content: content("Acme", "a@acme.test") });
  const listed = async (c: SparkPost) => (await c.templates.list()).results.map((t: { id: string; name: string; subaccount_id?: number }) => [t.name, t.subaccount_id ?? 0]);
  expect(await listed(as(env.t.accountKey, 1))).toEqual([["acme welcome", 1]]);
  expect(await listed(as(acmeKey))).toEqual([["acme welcome", 1]]);
  expect(await listed(as(env.t.accountKey, 0))).toEqual([["primary welcome", 0], ["p", 0]]);
  expect(await listed(as(env.t.accountKey, 2))).toEqual([]);
  expect((await listed(env.account)).sort()).toEqual([["acme welcome", 1], ["p", 0], ["primary welcome", 0]]);
  expect((await as(acmeKey).templates.get("welcome")).results.name).toBe("acme welcome");
  expect((await failure(as(acmeKey).templates.get("primary-only"))).statusCode).toBe(404);
  expect((await failure(as(env.t.accountKey, 2).templates.get("welcome"))).statusCode).toBe(404);
  expect((await failure(as(acmeKey).templates.delete("primary-only"))).statusCode).toBe(404);

  // acme's key sends with "welcome": its own template, not the primary's of the same id; the primary's other id is unknown to it.
  await as(acmeKey).transmissions.send({ content: { template_id: "welcome" }, substitution_data: { n: 5 }, recipients: [{ address: "tpl@dest.test" }] });
  expect((await env.received("tpl@dest.test")).parsed.subject).toBe("Acme 5");
  const unknown = await failure(as(acmeKey).transmissions.send({ content: { template_id: "primary-only" }, recipients: [{ address: "x@dest.test" }] }));
  expect([unknown.statusCode, unknown.errors[0]!.code]).toEqual([422, "1603"]);
});

test("recipient lists: each tenant has its own; a transmission to another tenant's list is 422 1603", async () => {
  await env.account.recipientLists.create({ id: "vip", name: "primary vip", recipients: [{ address: "p-vip@dest.test" }] });
  await as(acmeKey).recipientLists.create({ id: "vip", name: "acme vip", recipients: [{ address: "acme-vip@dest.test" }] });
  await as(env.t.accountKey, 1).recipientLists.create({ id: "acme-only", name: "acme only", recipients: [{ address: "x@dest.test" }] });
  const listed = async (c: SparkPost) => (await c.recipientLists.list()).results.map((l: { name: string }) => l.name).sort();
  expect(await listed(as(acmeKey))).toEqual(["acme only", "acme vip"]);
  expect(await listed(as(env.t.accountKey, 0))).toEqual(["primary vip"]);
  expect(await listed(as(env.t.accountKey, 2))).toEqual([]);
  expect(await listed(env.account)).toEqual(["acme only", "acme vip", "primary vip"]);
  expect((await failure(as(env.t.accountKey, 0).recipientLists.get("acme-only"))).statusCode).toBe(404);

  await as(acmeKey).transmissions.send({ content: { from: "a@acme.test", subject: "s", html: "h" }, recipients: { list_id: "vip" } });
  await env.received("acme-vip@dest.test");
  const other = await failure(as(env.t.accountKey, 0).transmissions.send({ content: { from: "a@example.com", subject: "s", html: "h" }, recipients: { list_id: "acme-only" } }));
  expect([other.statusCode, other.errors[0]!.code]).toEqual([422, "1603"]);
  expect(env.sink.messages.some((m) => m.to.includes("p-vip@dest.test"))).toBe(false);
  const audit = (await env.t.app.audit.list({ action: "list.create", limit: 10 })).items.map((e) => [e.target, e.tenant]);
  expect(audit).toEqual([["acme-only", 1], ["vip", 1], ["vip", 0]]);
});

test("inbound domains and relay webhooks: a tenant configures only its own domains, and each tenant reads its own", async () => {
  expect((await failure(env.account.inboundDomains.create({ domain: "in.acme.test" }))).statusCode).toBe(422);
  await as(acmeKey).inboundDomains.create({ domain: "in.acme.test" });
  await env.account.inboundDomains.create({ domain: "in.example.com" });
  expect((await failure(as(acmeKey).inboundDomains.create({ domain: "in2.example.com" }))).statusCode).toBe(422);
  const domains = async (c: SparkPost) => (await c.inboundDomains.list()).results.map((d: { domain: string }) => d.domain).sort();
  expect(await domains(as(acmeKey))).toEqual(["in.acme.test"]);
  expect(await domains(as(env.t.accountKey, 0))).toEqual(["in.example.com"]);
  expect(await domains(env.account)).toEqual(["in.acme.test", "in.example.com"]);

  const hook = await as(env.t.accountKey, 1).relayWebhooks.create({ name: "acme", target: "http://127.0.0.1:9/r", match: { protocol: "SMTP", domain: "in.acme.test" } } as never);
  // The primary acting for itself cannot hang a relay webhook on acme's inbound domain.
  expect((await failure(as(env.t.accountKey, 0).relayWebhooks.create({ target: "http://127.0.0.1:9/p", match: { domain: "in.acme.test" } } as never))).statusCode).toBe(422);
  const hooks = async (c: SparkPost) => (await c.relayWebhooks.list()).results.map((r: { name: string }) => r.name);
  expect(await hooks(as(acmeKey))).toEqual(["acme"]);
  expect(await hooks(as(env.t.accountKey, 0))).toEqual([]);
  expect(await hooks(as(env.t.accountKey, 2))).toEqual([]);
  expect(await hooks(env.account)).toEqual(["acme"]);
  expect((await failure(as(env.t.accountKey, 2).relayWebhooks.delete(hook.results.id))).statusCode).toBe(404);
});

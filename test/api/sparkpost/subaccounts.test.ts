// SparkPost subaccounts and X-MSYS-SUBACCOUNT through the unchanged official client (its `headers`
// option): create with key_label/key_grants gives the tenant's own key; list, get, PUT status;
// reads without the header cover every tenant, `0` the primary only; a tenant key sees only its
// tenant and is refused naming another; a suspended tenant reads but cannot send; only the primary
// manages subaccounts; the audit log names the tenant.
import { afterAll, beforeAll, expect, test } from "bun:test";
import SparkPost from "sparkpost";
import { failure, startSpEnv, type SpEnv } from "./setup.ts";

let env: SpEnv;
beforeAll(async () => { env = await startSpEnv(); });
afterAll(async () => { await env.close(); });

const as = (key: string, subaccount?: number) => new SparkPost(key, { origin: env.origin, ...(subaccount === undefined ? {} : { headers: { "X-MSYS-SUBACCOUNT": String(subaccount) } }) });
const names = (r: { results: { domain: string }[] }) => r.results.map((d) => d.domain).sort();
const GRANTS = ["transmissions/modify", "sending_domains/manage", "api_keys/manage"];

test("subaccounts: create with a key, list, get, status; the tenant's key and domains stay its own", async () => {
  const created = await env.account.subaccounts.create({ name: "acme", key_label: "acme key", key_grants: GRANTS });
  const acmeKey = created.results.key as string;
  expect(acmeKey).toMatch(/^pk\./);
  expect(created.results).toEqual({ subaccount_id: 1, label: "acme key", key: acmeKey, short_key: acmeKey.slice(3, 7) });
  expect((await env.account.subaccounts.create({ name: "beta", setup_api_key: false })).results).toEqual({ subaccount_id: 2 });
  expect((await failure(env.account.subaccounts.create({ name: "acme", key_label: "x", key_grants: GRANTS }))).statusCode).toBe(409);
  expect((await failure(env.account.subaccounts.create({ name: "gamma" }))).statusCode).toBe(422);
  expect((await env.account.subaccounts.list()).results).toEqual([
    { id: 1, name: "acme", status: "active", compliance_status: "active" }, { id: 2, name: "beta", status: "active", compliance_status: "active" }]);
  expect((await env.account.subaccounts.get("2")).results).toMatchObject({ id: 2, name: "beta" });
  expect((await failure(env.account.subaccounts.get("9"))).statusCode).toBe(404);

  // A domain made on behalf of subaccount 1 (the header), and one by the tenant's own key, are the tenant's.
  await as(env.t.accountKey, 1).sendingDomains.create({ domain: "acme.test" });
  await as(acmeKey).sendingDomains.create({ domain: "shop.acme.test" });
  await as(env.t.accountKey, 2).sendingDomains.create({ domain: "beta.test" });
  expect(names(await as(acmeKey).sendingDomains.list())).toEqual(["acme.test", "shop.acme.test"]);
  // The primary without the header reads every tenant; with 0 only its own; with 2 only beta's.
  expect(names(await env.account.sendingDomains.list())).toEqual(["acme.test", "beta.test", "example.com", "shop.acme.test"]);
  expect(names(await as(env.t.accountKey, 0).sendingDomains.list())).toEqual(["example.com"]);
  expect(names(await as(env.t.accountKey, 2).sendingDomains.list())).toEqual(["beta.test"]);
  // Another tenant's domain is refused as another domain is to a domain key (403); a tenant key naming another tenant is refused.
  expect((await failure(as(acmeKey).sendingDomains.get("beta.test"))).statusCode).toBe(403);
  expect((await failure(as(acmeKey).sendingDomains.get("example.com"))).statusCode).toBe(403);
  // DELETE declares no domain parameter: the lookup (sparkpost/policy.ts pathDomain) finds nothing of another tenant.
  expect((await failure(as(acmeKey).sendingDomains.delete("beta.test"))).statusCode).toBe(404);
  expect((await failure(as(acmeKey).sendingDomains.get("nowhere.test"))).statusCode).toBe(404);
  expect((await failure(as(acmeKey, 2).sendingDomains.list())).statusCode).toBe(403);
  expect((await failure(as(acmeKey, 0).sendingDomains.list())).statusCode).toBe(403);
  expect((await failure(as(env.t.accountKey, 7).sendingDomains.list())).statusCode).toBe(403);
  // Only the primary, acting for itself, manages subaccounts.
  expect((await failure(as(acmeKey).subaccounts.list())).statusCode).toBe(403);
  expect((await failure(as(env.t.accountKey, 1).subaccounts.list())).statusCode).toBe(403);
  // A key made on behalf of a tenant is that tenant's.
  const made = await as(env.t.accountKey, 2).post({ uri: "api-keys", json: { label: "beta key", grants: ["sending_domains/manage"] } });
  expect(names(await as(made.results.key).sendingDomains.list())).toEqual(["beta.test"]);
  // Keys: a tenant key lists and reads only its tenant's; the primary acting for beta sees beta's.
  const acmeKeys = (await as(acmeKey).get({ uri: "api-keys" })).results as { id: string; label: string }[];
  expect(acmeKeys.map((k) => k.label)).toEqual(["acme key"]);
  expect((await as(env.t.accountKey, 2).get({ uri: "api-keys" })).results.map((k: { label: string }) => k.label)).toEqual(["beta key"]);
  expect((await failure(as(acmeKey).get({ uri: `api-keys/${made.results.id}` }))).statusCode).toBe(404);
  expect((await env.account.get({ uri: "api-keys" })).results.length).toBeGreaterThanOrEqual(4);
});

test("a suspended subaccount reads but cannot send or change; active again, it can", async () => {
  const { results } = await env.account.subaccounts.create({ name: "delta", key_label: "d", key_grants: GRANTS });
  const id = String(results.subaccount_id);
  await as(results.key).sendingDomains.create({ domain: "delta.test" });
  expect((await env.account.subaccounts.update(id, { status: "suspended" })).results).toEqual({ message: "Successfully updated subaccount information" });
  expect((await env.account.subaccounts.get(id)).results.status).toBe("suspended");
  expect(names(await as(results.key).sendingDomains.list())).toEqual(["delta.test"]);
  const send = await failure(as(results.key).transmissions.send({ recipients: [{ address: "x@dest.test" }], content: { from: "a@delta.test", subject: "s", text: "t" } }));
  expect(send.statusCode).toBe(403);
  expect(send.errors[0]!.description).toMatch(/suspended/);
  expect((await failure(as(results.key).sendingDomains.create({ domain: "more.delta.test" }))).statusCode).toBe(403);
  expect((await failure(env.account.subaccounts.update(id, { status: "paused" }))).statusCode).toBe(422);
  await env.account.subaccounts.update(id, { status: "active" });
  await as(results.key).sendingDomains.create({ domain: "more.delta.test" });
  const audit = await env.t.app.audit.list({ action: "tenant", limit: 50 });
  expect(audit.items.filter((e) => e.target === "delta").map((e) => [e.action, e.tenant])).toEqual([
    ["tenant.enable", Number(id)], ["tenant.suspend", Number(id)], ["tenant.add", Number(id)]]);
  const domains = await env.t.app.audit.list({ action: "domain.add", limit: 50 });
  expect(domains.items.find((e) => e.target === "more.delta.test")?.tenant).toBe(Number(id));
});

test("isolation: a tenant's suppressions stop only its mail; events and webhooks stay with their tenant", async () => {
  const { results } = await env.account.subaccounts.create({ name: "iso", key_label: "iso", key_grants: [...GRANTS, "suppression_lists/manage", "message_events/view", "webhooks/modify", "metrics/view"] });
  const iso = as(results.key as string);
  await iso.sendingDomains.create({ domain: "iso.test" });
  await env.t.app.domains.verify("iso.test", true);
  // The primary, acting for the tenant, suppresses an address: only the tenant's mail to it stops.
  await as(env.t.accountKey, results.subaccount_id).suppressionList.upsert([{ recipient: "shared@dest.test", type: "non_transactional" }]);
  expect((await iso.suppressionList.list()).results.map((r: { recipient: string }) => r.recipient)).toEqual(["shared@dest.test"]);
  // The act on behalf of the tenant is the tenant's in the audit log, done by the primary's key.
  const added = (await env.t.app.audit.list({ action: "suppression.add", limit: 10 })).items.find((e) => e.target.endsWith("/shared@dest.test"));
  expect([added?.tenant, added?.actor.kind]).toEqual([results.subaccount_id, "key"]);
  expect((await as(env.t.accountKey, 0).suppressionList.list()).results).toEqual([]);
  const send = (c: SparkPost, from: string) => c.transmissions.send({ recipients: [{ address: "shared@dest.test" }], content: { from, subject: from, text: "t" } });
  const primarySend = await send(env.account, "a@example.com");
  expect(primarySend.results.total_accepted_recipients).toBe(1);
  await env.received("shared@dest.test");
  const isoSend = await send(iso, "a@iso.test").then((r) => r.results.total_rejected_recipients, (e) => e.statusCode);
  expect(isoSend === 1 || isoSend === 400).toBe(true);
  expect(env.sink.messages.filter((m) => m.to.includes("shared@dest.test"))).toHaveLength(1);
  // Metrics: by subaccount, and `subaccounts=` keeps the named ones.
  const from = new Date(Date.now() - 3_600_000).toISOString().slice(0, 16);
  const bySub = (await env.account.get({ uri: "metrics/deliverability/subaccount", qs: { from, metrics: "count_targeted" } })).results as { subaccount_id: number; count_targeted: number }[];
  expect(bySub.find((r) => r.subaccount_id === results.subaccount_id)?.count_targeted).toBe(1);
  expect(bySub.find((r) => r.subaccount_id === 0)?.count_targeted).toBeGreaterThanOrEqual(1);
  const onlyIso = (await env.account.get({ uri: "metrics/deliverability", qs: { from, metrics: "count_targeted", subaccounts: String(results.subaccount_id) } })).results;
  expect(onlyIso[0].count_targeted).toBe(1);
  const isoOwn = (await iso.get({ uri: "metrics/deliverability/subaccount", qs: { from, metrics: "count_targeted" } })).results as { subaccount_id: number }[];
  expect(isoOwn.map((r) => r.subaccount_id)).toEqual([results.subaccount_id]);
  // Events: the tenant reads its own only; the primary with 0 its own only.
  const events = async (c: SparkPost) => ((await c.get({ uri: "events/message" })).results as { friendly_from?: string; rcpt_to: string; type: string }[]);
  const isoEvents = await events(iso);
  expect(isoEvents.length).toBeGreaterThan(0);
  expect(isoEvents.every((e) => e.friendly_from === "a@iso.test")).toBe(true);
  expect((await events(as(env.t.accountKey, 0))).some((e) => e.friendly_from === "a@iso.test")).toBe(false);
  const named = (await env.account.get({ uri: "events/message", qs: { subaccounts: String(results.subaccount_id) } })).results as { friendly_from?: string }[];
  expect(named.length).toBe(isoEvents.length);
  expect(named.every((e) => e.friendly_from === "a@iso.test")).toBe(true);
  // Webhooks: made by the tenant, listed for it and not for the primary acting for itself.
  const receiver = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("ok") });
  try {
    await iso.webhooks.create({ name: "iso hook", target: `http://127.0.0.1:${receiver.port}/hook`, events: ["delivery"] });
  } finally { receiver.stop(true); }
  const isoHooks = (await iso.webhooks.list()).results as { name: string }[];
  expect(isoHooks.map((h) => h.name)).toEqual(["iso hook"]);
  const primaryHooks = (await as(env.t.accountKey, 0).webhooks.list()).results as { name: string }[];
  expect(primaryHooks.some((h) => h.name === "iso hook")).toBe(false);
});

// Account-wide native webhooks (POST/GET /webhooks, DELETE /webhooks/{type}): notice types only,
// every URL checked with a sample signed with the account's key, account keys only.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { createHmac } from "node:crypto";
import { form, startNative, type NativeEnv } from "./setup.ts";
import { startReceiver } from "../../helpers/receiver.ts";

setDefaultTimeout(60_000);
let env: NativeEnv;
const ok = startReceiver(200);
const failing = startReceiver(500);
beforeAll(async () => { env = await startNative({ toml: `[doctor]\ninterval = "0"\n` }); });
afterAll(async () => { ok.stop(); failing.stop(); await env.close(); });

const create = (id: string, urls: string[], key?: string) =>
  env.call("/webhooks", { method: "POST", key, body: form([["id", id], ...urls.map((u): [string, string] => ["url", u])]) });

test("create checks each URL with a signed notice sample, replaces the type's URLs, lists and deletes them", async () => {
  expect((await create("domain_delisted", [ok.url])).status).toBe(200);
  const sample = ok.received[0]!.json as { signature: { timestamp: string; token: string; signature: string }; "event-data": { event: string } };
  expect(sample["event-data"].event).toBe("domain_delisted");
  const key = await env.t.app.events.keys.forDomain(null);
  expect(createHmac("sha256", key).update(`${sample.signature.timestamp}${sample.signature.token}`).digest("hex")).toBe(sample.signature.signature);
  expect((await create("ip_listed", [ok.url])).status).toBe(200);
  expect((await create("ip_listed", [`${ok.url}?2`])).status).toBe(200);
  expect(await (await env.call("/webhooks")).json()).toEqual({ webhooks: { ip_listed: { urls: [`${ok.url}?2`] }, domain_delisted: { urls: [ok.url] } } });
  const del = await env.call("/webhooks/ip_listed", { method: "DELETE" });
  expect(await del.json()).toEqual({ message: "Webhook has been deleted", webhook: { urls: [`${ok.url}?2`] } });
  expect((await env.call("/webhooks/ip_listed", { method: "DELETE" })).status).toBe(402);
  // Domain webhooks are not account-wide ones.
  expect(Object.keys((await (await env.call("/webhooks")).json()).webhooks)).toEqual(["domain_delisted"]);
});

test("a failing URL stores nothing (402); message types are refused (400); domain keys may not (403)", async () => {
  const bad = await create("ip_delisted", [failing.url]);
  expect(bad.status).toBe(402);
  expect((await bad.json()).errors[0]).toMatch(/HTTP 500/);
  expect((await create("delivered", [ok.url])).status).toBe(400);
  expect((await create("ip_listed", [])).status).toBe(400);
  expect((await create("ip_listed", [ok.url], env.t.domainKey)).status).toBe(403);
  expect((await env.call("/webhooks", { key: env.t.domainKey })).status).toBe(403);
  expect((await env.call("/webhooks/nope", { method: "DELETE" })).status).toBe(400);
});

test("a tenant's account key owns its own notice webhooks: made, listed and deleted within its tenant only", async () => {
  expect((await create("domain_listed", [ok.url])).status).toBe(200);
  const acme = await env.t.app.tenants.add("acme");
  const beta = await env.t.app.tenants.add("beta");
  const acmeKey = (await env.t.app.access.createKey({ kind: "account", tenant: acme.id })).key;
  const betaKey = (await env.t.app.access.createKey({ kind: "account", tenant: beta.id })).key;
  // Nothing of the primary's shows to a tenant.
  expect(await (await env.call("/webhooks", { key: acmeKey })).json()).toEqual({ webhooks: {} });
  const made = await create("domain_listed", [`${ok.url}?acme`], acmeKey);
  expect(made.status).toBe(200);
  // The sample it was checked with is signed with the tenant's own key, not the installation's.
  const sample = ok.received.at(-1)!.json as { signature: { timestamp: string; token: string; signature: string } };
  const sign = (k: string) => createHmac("sha256", k).update(`${sample.signature.timestamp}${sample.signature.token}`).digest("hex");
  expect(sign(await env.t.app.events.keys.forTenant(acme.id))).toBe(sample.signature.signature);
  expect(sign(await env.t.app.events.keys.forDomain(null))).not.toBe(sample.signature.signature);
  // ...which GET /webhooks/signing-key gives the tenant (and the installation's to the primary only).
  const keyOf = async (k?: string) => (await (await env.call("/webhooks/signing-key", { key: k })).json()).signing_key;
  expect(await keyOf(acmeKey)).toBe(await env.t.app.events.keys.forTenant(acme.id));
  expect(await keyOf()).toBe(await env.t.app.events.keys.forDomain(null));
  expect(await keyOf(betaKey)).not.toBe(await keyOf(acmeKey));
  const [target] = (await env.t.app.webhooks.list(null)).filter((w) => w.url === `${ok.url}?acme`);
  expect(target!.tenantId).toBe(acme.id);
  expect(await (await env.call("/webhooks", { key: acmeKey })).json()).toEqual({ webhooks: { domain_listed: { urls: [`${ok.url}?acme`] } } });
  // The primary's own and another tenant's lists do not show it, and neither replaces nor deletes it.
  expect((await (await env.call("/webhooks")).json()).webhooks.domain_listed).toEqual({ urls: [ok.url] });
  expect(await (await env.call("/webhooks", { key: betaKey })).json()).toEqual({ webhooks: {} });
  expect((await env.call("/webhooks/domain_listed", { method: "DELETE", key: betaKey })).status).toBe(402);
  expect((await create("domain_listed", [`${ok.url}?beta`], betaKey)).status).toBe(200);
  expect((await (await env.call("/webhooks", { key: acmeKey })).json()).webhooks.domain_listed).toEqual({ urls: [`${ok.url}?acme`] });
  // The primary acting for acme sees and deletes acme's; a tenant key naming another tenant is refused.
  expect((await env.call("/webhooks", { key: betaKey, headers: { "x-postern-tenant": "acme" } })).status).toBe(403);
  const del = await env.call("/webhooks/domain_listed", { method: "DELETE", headers: { "x-postern-tenant": "acme" } });
  expect(await del.json()).toEqual({ message: "Webhook has been deleted", webhook: { urls: [`${ok.url}?acme`] } });
  expect((await (await env.call("/webhooks")).json()).webhooks.domain_listed).toEqual({ urls: [ok.url] });
  expect((await (await env.call("/webhooks", { key: betaKey })).json()).webhooks.domain_listed).toEqual({ urls: [`${ok.url}?beta`] });
});

test("egress notices are the installation's: a tenant's key may not watch the egress addresses (403)", async () => {
  const gamma = await env.t.app.tenants.add("gamma");
  const key = (await env.t.app.access.createKey({ kind: "account", tenant: gamma.id })).key;
  const refused = await create("ip_listed", [ok.url], key);
  expect(refused.status).toBe(403);
  expect(await refused.json()).toMatchObject({ status: 403 });
  expect((await env.call("/webhooks/ip_listed", { method: "DELETE", key })).status).toBe(403);
});

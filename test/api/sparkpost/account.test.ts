// SparkPost's account resource (GET /account, include=usage) through the official client.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import SparkPost from "sparkpost";
import { startSpEnv, type SpEnv } from "./setup.ts";

let env: SpEnv;
beforeAll(async () => {
  env = await startSpEnv({ dns: { "dest.test": { mx: [{ exchange: "mx.dest.test", priority: 5 }] } } });
});
afterAll(async () => { await env.close(); });

describe("GET /account", () => {
  test("answers the account in SparkPost's shape; include=usage counts accepted messages", async () => {
    await env.domain.transmissions.send({ recipients: [{ address: "u1@dest.test" }, { address: "u2@dest.test" }], content: { from: "a@example.com", subject: "s", text: "t" } });
    const res = await env.account.get({ uri: "account", qs: { include: "usage" } });
    expect(res.results).toMatchObject({ customer_id: 1, status: "active", service_level: "standard", options: { click_tracking: false } });
    expect(res.results.usage.day.used).toBe(2);
    expect(res.results.usage.month.used).toBe(2);
    expect((await env.account.get({ uri: "account" })).results.usage).toBeUndefined();
  });
});

describe("GET /account usage and tenants", () => {
  test("a subaccount's key counts its own mail only; the primary without X-MSYS-SUBACCOUNT every tenant's, with 0 its own", async () => {
    const used = async (sp: typeof env.account) => (await sp.get({ uri: "account", qs: { include: "usage" } })).results.usage.day.used as number;
    const before = await used(env.account);
    const made = await env.account.subaccounts.create({ name: "acme", key_label: "acme", key_grants: ["transmissions/modify", "account/manage"] });
    await env.t.app.domains.add("acme.test", { tenant: made.results.subaccount_id });
    await env.t.app.domains.verify("acme.test", true);
    const acme = env.client(made.results.key);
    await acme.transmissions.send({ recipients: [{ address: "a1@dest.test" }], content: { from: "a@acme.test", subject: "s", text: "t" } });
    expect(await used(acme)).toBe(1);
    expect(await used(env.account)).toBe(before + 1);
    expect(await used(new SparkPost(env.t.accountKey, { origin: env.origin, headers: { "X-MSYS-SUBACCOUNT": "0" } }))).toBe(before);
  });
});

// SparkPost's account resource (GET /account, include=usage) through the official client.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
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

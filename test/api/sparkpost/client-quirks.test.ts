// The sparkpost client's wire habits (docs/api/sparkpost-omnivery.md §1.2, §6) and the auth forms
// SparkPost accepts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import SparkPost from "sparkpost";
import { bodyOf, startSpEnv, type SpEnv } from "./setup.ts";

let env: SpEnv;
beforeAll(async () => { env = await startSpEnv(); });
afterAll(async () => { await env.close(); });

describe("the client's quirks", () => {
  test("an origin with a trailing slash (//api/v1) and trailing slashes on paths work", async () => {
    const client = new SparkPost(env.t.accountKey, { origin: `${env.origin}/` });
    expect((await client.sendingDomains.list()).results.length).toBeGreaterThan(0);
    expect((await env.account.get({ uri: "sending-domains/" })).results.length).toBeGreaterThan(0);
  });

  test("the callback form and debug mode get JSON bodies", async () => {
    const body = await new Promise<{ results: unknown }>((resolve, reject) => {
      void env.account.get({ uri: "account" }, (err, b) => (err ? reject(err) : resolve(b as { results: unknown })));
    });
    expect(body.results).toHaveProperty("customer_id");
    const debug = new SparkPost(env.t.accountKey, { origin: env.origin, debug: true });
    const res = await debug.webhooks.list();
    expect(res.results).toBeArray();
  });

  test("Authorization as the raw key, as Basic base64(key:) and as Bearer", async () => {
    for (const authorization of [env.t.accountKey, `Basic ${btoa(`${env.t.accountKey}:`)}`, `Bearer ${env.t.accountKey}`]) {
      const res = await fetch(`${env.origin}/api/v1/account`, { headers: { authorization, "content-type": "application/json" } });
      expect(res.status).toBe(200);
    }
    const none = await fetch(`${env.origin}/api/v1/account`);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ errors: [{ message: "Unauthorized.", code: "1001", description: "Unauthorized." }] });
  });

  test("GET and DELETE with Content-Type: application/json and no body are fine", async () => {
    const get = await fetch(`${env.origin}/api/v1/webhooks`, { headers: { authorization: env.t.accountKey, "content-type": "application/json" } });
    expect(get.status).toBe(200);
    const del = await fetch(`${env.origin}/api/v1/suppression-list/none@dest.test`, { method: "DELETE",
      headers: { authorization: env.t.accountKey, "content-type": "application/json", "content-length": "0" } });
    expect(del.status).toBe(404);
    expect((await bodyOf(del)).errors[0].message).toBe("Recipient could not be found");
  });
});

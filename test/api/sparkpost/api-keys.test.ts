import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { failure, startSpEnv, type SpEnv } from "./setup.ts";

let env: SpEnv;
beforeAll(async () => { env = await startSpEnv(); });
afterAll(async () => { await env.close(); });

const message = { recipients: [{ address: "k@dest.test" }], content: { from: "a@example.com", subject: "s", text: "t" } };

async function keyWith(grants: string[], path = "api-keys") {
  const res = await env.account.post({ uri: path, json: { label: `with ${grants.join(",")}`, grants } });
  return res.results as { id: string; key: string; grants: string[]; kind: string; domain?: string; short_key: string; link: { href: string } };
}

describe("API keys through the client's unwrapped calls", () => {
  test("create shows the secret once; list and get never do", async () => {
    const k = await keyWith(["transmissions/modify", "transmissions/view"]);
    expect(k.key).toMatch(/^pk\./);
    expect(k).toMatchObject({ grants: ["transmissions/modify", "transmissions/view"], kind: "account", short_key: k.id.slice(0, 4), link: { href: `/api/v1/api-keys/${k.id}` } });
    const list = await env.account.get({ uri: "api-keys" });
    const listed = list.results.find((x: { id: string }) => x.id === k.id);
    expect(listed).toMatchObject({ label: "with transmissions/modify,transmissions/view", grants: k.grants });
    expect(listed.key).toBeUndefined();
    expect((await env.account.get({ uri: `api-keys/${k.id}` })).results).toMatchObject({ id: k.id, kind: "account" });
  });

  test("/{domain}/api-keys makes a domain key that sends for that domain only", async () => {
    const k = await keyWith([], "example.com/api-keys");
    expect(k).toMatchObject({ kind: "domain", domain: "example.com" });
    expect(k.key).toMatch(/^sk\./);
    const res = await env.client(k.key).transmissions.send(message);
    expect(res.results.total_accepted_recipients).toBe(1);
    const listed = await env.account.get({ uri: "example.com/api-keys" });
    expect(listed.results.every((x: { domain?: string }) => x.domain === "example.com")).toBe(true);
    expect((await failure(env.account.get({ uri: "nodomain.test/api-keys" }))).statusCode).toBe(404);
  });

  test("a domain key sees and makes only keys of its own domain", async () => {
    const mine = await env.domain.post({ uri: "api-keys", json: { label: "sub" } });
    expect(mine.results).toMatchObject({ kind: "domain", domain: "example.com" });
    const acct = await keyWith([]);
    expect((await failure(env.domain.get({ uri: `api-keys/${acct.id}` }))).statusCode).toBe(404);
    expect((await failure(env.domain.delete({ uri: `api-keys/${acct.id}` }))).statusCode).toBe(404);
    const list = await env.domain.get({ uri: "api-keys" });
    expect(list.results.some((x: { id: string }) => x.id === acct.id)).toBe(false);
  });

  test("delete revokes at once (204, then 401)", async () => {
    const k = await keyWith([]);
    expect(await env.account.delete({ uri: `api-keys/${k.id}` })).toBe("");
    const err = await failure(env.client(k.key).get({ uri: "account" }));
    expect(err.statusCode).toBe(401);
    expect(err.errors[0]!.code).toBe("1001");
    expect((await failure(env.account.get({ uri: `api-keys/${k.id}` }))).statusCode).toBe(404);
  });

  test("unknown grants and valid_ips are refused with 422", async () => {
    const bad = await failure(env.account.post({ uri: "api-keys", json: { label: "x", grants: ["everything/please"] } }));
    expect(bad.statusCode).toBe(422);
    expect(bad.errors[0]!.description).toBe("unknown grant everything/please");
    const ips = await failure(env.account.post({ uri: "api-keys", json: { label: "x", grants: [], valid_ips: ["10.0.0.1"] } }));
    expect(ips.statusCode).toBe(422);
  });
});

describe("grants are enforced on every route", () => {
  test("transmissions/view reads but cannot send; transmissions/modify sends", async () => {
    const view = env.client((await keyWith(["transmissions/view"])).key);
    expect((await view.transmissions.list()).results).toBeArray();
    const err = await failure(view.transmissions.send(message));
    expect(err.statusCode).toBe(403);
    expect(err.errors[0]).toMatchObject({ code: "1002", description: "this API key lacks the grant transmissions/modify" });
    const modify = env.client((await keyWith(["transmissions/modify"])).key);
    expect((await modify.transmissions.send(message)).results.total_accepted_recipients).toBe(1);
    expect((await modify.transmissions.list()).results).toBeArray();
  });

  test("each route group wants its own grant", async () => {
    const only = env.client((await keyWith(["transmissions/modify"])).key);
    const denied = [
      only.sendingDomains.list(), only.webhooks.list(), only.suppressionList.list(), only.get({ uri: "api-keys" }),
      only.get({ uri: "account" }), only.get({ uri: "recipient-validation/single/a@example.com" }),
      only.post({ uri: "api-keys", json: { label: "x" } }),
    ];
    for (const p of denied) expect((await failure(p)).statusCode).toBe(403);
    const reader = env.client((await keyWith(["webhooks/view", "recipient-validation/preview", "sending_domains/manage", "suppression_lists/manage", "account/manage"])).key);
    expect((await reader.webhooks.list()).results).toBeArray();
    expect((await failure(reader.webhooks.create({ name: "x", target: "http://127.0.0.1:1/", events: ["delivery"] }))).statusCode).toBe(403);
    expect((await reader.sendingDomains.list()).results).toBeArray();
    expect((await reader.suppressionList.list()).results).toBeArray();
    expect((await reader.get({ uri: "account" })).results.status).toBe("active");
    expect((await reader.get({ uri: "recipient-validation/single/someone@example.com" })).results).toHaveProperty("result");
  });

  test("no key can make a stronger key", async () => {
    const manager = env.client((await keyWith(["api_keys/manage"])).key);
    expect((await failure(manager.post({ uri: "api-keys", json: { label: "all" } }))).statusCode).toBe(403);
    expect((await failure(manager.post({ uri: "api-keys", json: { label: "tx", grants: ["transmissions/modify"] } }))).statusCode).toBe(403);
    const same = await manager.post({ uri: "api-keys", json: { label: "same", grants: ["api_keys/manage"] } });
    expect(same.results.grants).toEqual(["api_keys/manage"]);
  });
});

describe("PUT /api-keys/{id}", () => {
  test("changes the label and grants; the new grants apply on the key's next request", async () => {
    const k = await keyWith(["transmissions/modify"]);
    const client = env.client(k.key);
    expect((await client.transmissions.send(message)).results.total_accepted_recipients).toBe(1);
    const res = await env.account.put({ uri: `api-keys/${k.id}`, json: { label: "renamed", grants: ["transmissions/view"] } });
    expect(res.results).toMatchObject({ id: k.id, label: "renamed", grants: ["transmissions/view"], link: { href: `/api/v1/api-keys/${k.id}` } });
    expect(res.results.key).toBeUndefined();
    expect((await failure(client.transmissions.send(message))).statusCode).toBe(403);
    const labelOnly = await env.account.put({ uri: `api-keys/${k.id}`, json: { label: "again" } });
    expect(labelOnly.results).toMatchObject({ label: "again", grants: ["transmissions/view"] });
  });

  test("a key cannot grant more than it holds, nor change a stronger key", async () => {
    const manager = env.client((await keyWith(["api_keys/manage", "transmissions/view"])).key);
    const weak = await keyWith(["transmissions/view"]);
    expect((await failure(manager.put({ uri: `api-keys/${weak.id}`, json: { grants: ["transmissions/modify"] } }))).statusCode).toBe(403);
    expect((await failure(manager.put({ uri: `api-keys/${weak.id}`, json: { grants: [] } }))).statusCode).toBe(403);
    expect((await manager.put({ uri: `api-keys/${weak.id}`, json: { label: "ok", grants: ["api_keys/manage"] } })).results.grants).toEqual(["api_keys/manage"]);
    const strong = await keyWith([]);
    expect((await failure(manager.put({ uri: `api-keys/${strong.id}`, json: { label: "mine now" } }))).statusCode).toBe(403);
  });

  test("unknown and revoked keys are 404; a domain key cannot reach account keys; bad grants are 422", async () => {
    expect((await failure(env.account.put({ uri: "api-keys/nothere", json: { label: "x" } }))).statusCode).toBe(404);
    const acct = await keyWith([]);
    expect((await failure(env.domain.put({ uri: `api-keys/${acct.id}`, json: { label: "x" } }))).statusCode).toBe(404);
    expect((await failure(env.account.put({ uri: `api-keys/${acct.id}`, json: { grants: ["nope/nope"] } }))).statusCode).toBe(422);
    await env.account.delete({ uri: `api-keys/${acct.id}` });
    expect((await failure(env.account.put({ uri: `api-keys/${acct.id}`, json: { label: "x" } }))).statusCode).toBe(404);
  });
});

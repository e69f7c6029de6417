// SparkPost inbound domains and relay webhooks (src/api/sparkpost/inbound.ts) through the official
// sparkpost client: create, read, list, update, delete; bad input is SparkPost's error shape; a
// domain key cannot claim another domain's hostnames.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { failure, startSpEnv, type SpEnv } from "./setup.ts";

setDefaultTimeout(60_000);
let env: SpEnv;
beforeAll(async () => { env = await startSpEnv({ allowPrivate: true }); });
afterAll(async () => { await env.close(); });

describe("inbound domains", () => {
  test("create, list, get and delete", async () => {
    expect((await env.domain.inboundDomains.create({ domain: "In.Example.com" })).results ?? {}).toEqual({});
    expect((await env.domain.inboundDomains.list()).results).toEqual([{ domain: "in.example.com" }]);
    expect((await env.domain.inboundDomains.get("in.example.com")).results).toEqual({ domain: "in.example.com" });
    await env.domain.inboundDomains.delete("in.example.com");
    expect((await env.domain.inboundDomains.list()).results).toEqual([]);
    expect((await failure(env.domain.inboundDomains.get("in.example.com"))).statusCode).toBe(404);
  });

  test("a missing domain is SparkPost's 422; a domain key cannot claim another domain's hostname", async () => {
    const missing = await failure(env.domain.inboundDomains.create({} as never));
    expect(missing.statusCode).toBe(422);
    await env.t.app.domains.add("elsewhere.test");
    const foreign = await failure(env.domain.inboundDomains.create({ domain: "in.elsewhere.test" }));
    expect(foreign.statusCode).toBeGreaterThanOrEqual(400);
    expect(foreign.statusCode).toBeLessThan(500);
    expect((await env.account.inboundDomains.list()).results).toEqual([]);
  });
});

describe("relay webhooks", () => {
  test("create for an inbound domain, get, list, update and delete", async () => {
    await env.domain.inboundDomains.create({ domain: "replies.example.com" });
    const created = await env.domain.relayWebhooks.create({ name: "replies", target: "http://127.0.0.1:9/relay", auth_token: "tok",
      match: { protocol: "SMTP", domain: "replies.example.com" } } as never);
    const id = created.results.id as string;
    expect(typeof id).toBe("string");
    expect((await env.domain.relayWebhooks.get(id)).results).toEqual({ id, name: "replies", target: "http://127.0.0.1:9/relay", auth_token: "tok",
      auth_type: "none", match: { protocol: "SMTP", domain: "replies.example.com" } });
    await env.domain.relayWebhooks.update(id, { name: "renamed" } as never);
    expect((await env.domain.relayWebhooks.list()).results).toEqual([expect.objectContaining({ id, name: "renamed", target: "http://127.0.0.1:9/relay" })]);
    await env.domain.relayWebhooks.delete(id);
    expect((await env.domain.relayWebhooks.list()).results).toEqual([]);
    expect((await failure(env.domain.relayWebhooks.get(id))).statusCode).toBe(404);
  });

  test("a missing target or match domain, or another protocol, or a domain that does not receive, is SparkPost's 422 naming it", async () => {
    const notInbound = await failure(env.domain.relayWebhooks.create({ target: "http://127.0.0.1:9/r", match: { domain: "nothing.example.com" } } as never));
    expect(JSON.stringify(notInbound.errors)).toContain("not an inbound domain");
    for (const [body, word] of [[{ match: { domain: "r.example.com" } }, "target"], [{ target: "http://127.0.0.1:9/r" }, "match.domain"],
      [{ target: "http://127.0.0.1:9/r", match: { domain: "r.example.com", protocol: "HTTP" } }, "protocol"]] as const) {
      const f = await failure(env.domain.relayWebhooks.create(body as never));
      expect(f.statusCode).toBe(422);
      expect(JSON.stringify(f.errors)).toContain(word);
    }
  });
});

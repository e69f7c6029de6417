import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { failure, startSpEnv, type SpEnv } from "./setup.ts";

let env: SpEnv;
beforeAll(async () => {
  env = await startSpEnv({ dns: { "gmail.com": { mx: [{ exchange: "mx.gmail.com", priority: 5 }] }, "dest.test": { mx: [{ exchange: "mx.dest.test", priority: 5 }] } } });
});
afterAll(async () => { await env.close(); });

describe("recipient validation (unwrapped client.get, and POST)", () => {
  test("a deliverable free-mail address is valid", async () => {
    const res = await env.domain.get({ uri: "recipient-validation/single/someone@gmail.com" });
    expect(res.results).toMatchObject({ result: "valid", valid: true, is_role: false, is_disposable: false, is_free: true });
    expect(res.results.delivery_confidence).toBeGreaterThan(50);
    expect(res.results.reason).toBeUndefined();
  });

  test("a mistyped domain is a typo with did_you_mean; a role address says so", async () => {
    const typo = await env.domain.get({ uri: "recipient-validation/single/someone@gmial.com" });
    expect(typo.results).toMatchObject({ result: "typo", did_you_mean: "someone@gmail.com" });
    const role = await env.domain.post({ uri: "recipient-validation/single/admin@dest.test", json: {} });
    expect(role.results.is_role).toBe(true);
  });

  test("bad syntax and dead domains are undeliverable with SparkPost's reasons", async () => {
    const syntax = await env.domain.get({ uri: "recipient-validation/single/not-an-address" });
    expect(syntax.results).toMatchObject({ result: "undeliverable", valid: false, reason: "Invalid Syntax", delivery_confidence: 0 });
    const dead = await env.domain.get({ uri: "recipient-validation/single/x@nowhere.test" });
    expect(dead.results).toMatchObject({ result: "undeliverable", reason: "Invalid Domain" });
  });

  test("a domain key needs validation turned on for its domain", async () => {
    await env.t.app.domains.set("example.com", { validation: false });
    try {
      const err = await failure(env.domain.get({ uri: "recipient-validation/single/someone@gmail.com" }));
      expect(err.statusCode).toBe(403);
      expect((await env.account.get({ uri: "recipient-validation/single/someone@gmail.com" })).results.valid).toBe(true);
    } finally {
      await env.t.app.domains.set("example.com", { validation: true });
    }
  });
});

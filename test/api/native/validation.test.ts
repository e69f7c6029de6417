// The native GET /{domain}/validate.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { form, startNative, type NativeEnv } from "./setup.ts";

setDefaultTimeout(60_000);

let env: NativeEnv;
beforeAll(async () => {
  env = await startNative({ dns: { "gmail.com": { mx: [{ exchange: "gmail-smtp-in.l.google.com", priority: 5 }] } } });
});
afterAll(async () => { await env.close(); });

describe("GET /{domain}/validate", () => {
  test("answers the full validation result", async () => {
    const res = await env.call("/example.com/validate?address=John.Doe@Gmail.com");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(["accept_all", "did_you_mean", "disposable", "domain", "email", "free", "message", "reason",
      "result", "role", "sendex", "success", "timeLogged", "user"]);
    expect(body).toMatchObject({ email: "john.doe@gmail.com", user: "john.doe", domain: "gmail.com", free: true, role: false,
      disposable: false, success: true });
    expect(["deliverable", "risky"]).toContain(body.result);
    expect(Number.isInteger(body.timeLogged)).toBe(true);
  });

  test("answers invalid_email for bad syntax and 400 without an address", async () => {
    expect(await (await env.call("/example.com/validate?address=nope")).json()).toMatchObject({ result: "undeliverable", reason: "invalid_email" });
    expect((await env.call("/example.com/validate")).status).toBe(400);
  });

  test("answers 402 when validation is off for the domain", async () => {
    await env.t.app.domains.set("other.test", { validation: false });
    const res = await env.call("/other.test/validate?address=a@gmail.com", { key: env.otherKey });
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({ message: "Email validation is not enabled for domain other.test", status: 402 });
  });

  test("is scoped: 404 for a domain the key may not see", async () => {
    expect((await env.call("/example.com/validate?address=a@gmail.com", { key: env.otherKey })).status).toBe(404);
  });
});

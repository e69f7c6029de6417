import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { form, startNative, type NativeEnv } from "./setup.ts";

setDefaultTimeout(60_000);

let env: NativeEnv;
beforeAll(async () => {
  env = await startNative({ dns: { "gmail.com": { mx: [{ exchange: "gmail-smtp-in.l.google.com", priority: 5 }] } } });
});
afterAll(async () => { await env.close(); });

const suppress = (domain: string, pairs: [string, string][], key?: string) =>
  env.call(`/${domain}/suppress`, { method: "POST", body: form(pairs), key });

describe("POST /{domain}/suppress", () => {
  test("adds an unsubscribe by default and answers message, address and type", async () => {
    const res = await suppress("example.com", [["address", "Gone@Dest.test"], ["error", "clicked unsubscribe"]]);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: "Address has been added to the unsubscribes table", address: "Gone@Dest.test", type: "unsubscribe" });
    expect(await env.t.app.suppressions.get("example.com", "unsubscribes", "gone@dest.test")).toMatchObject({ reason: "clicked unsubscribe" });
  });

  test("maps bounce and complaint to their lists", async () => {
    expect((await suppress("example.com", [["address", "b@dest.test"], ["type", "bounce"]])).status).toBe(200);
    expect((await suppress("example.com", [["address", "c@dest.test"], ["type", "complaint"], ["error", "spam"]])).status).toBe(200);
    expect(await env.t.app.suppressions.get("example.com", "bounces", "b@dest.test")).toMatchObject({ code: "550" });
    expect(await env.t.app.suppressions.get("example.com", "complaints", "c@dest.test")).toMatchObject({ reason: "spam" });
  });

  test("a suppressed address is not delivered to afterwards", async () => {
    await suppress("example.com", [["address", "nomore@dest.test"], ["type", "complaint"]]);
    const res = await env.call("/example.com/messages", { method: "POST", body: form([["from", "a@example.com"], ["to", "nomore@dest.test"], ["text", "x"]]) });
    const id = (await res.json()).id.replace(/^<|@.*$/g, "");
    expect((await env.t.app.store.zone("us").listRecipients(id)).map((r) => r.status)).toEqual(["suppressed"]);
  });

  test("answers 400 for a missing or bad address and an unknown type", async () => {
    for (const [pairs, text] of [
      [[["type", "bounce"]], "address is required"], [[["address", "nope"]], "not a valid email address"],
      [[["address", "x@dest.test"], ["type", "whatever"]], "type must be one of unsubscribe, bounce or complaint"],
    ] as [[string, string][], string][]) {
      const res = await suppress("example.com", pairs);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toContain(text);
    }
  });

  test("is scoped: a domain key may not suppress for another domain", async () => {
    expect((await suppress("example.com", [["address", "x@dest.test"]], env.otherKey)).status).toBe(404);
    expect((await suppress("other.test", [["address", "x@dest.test"]], env.otherKey)).status).toBe(200);
    expect((await suppress("nowhere.test", [["address", "x@dest.test"]])).status).toBe(404);
  });
});

describe("GET /address/parse", () => {
  test("splits a list into parsed parts and unparseable inputs", async () => {
    const q = encodeURIComponent("Alice <alice@example.org>, bob@Example.NET; not-an-address, \"c d\"@x.test");
    const res = await env.call(`/address/parse?addresses=${q}`, { key: env.otherKey });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      parsed: [
        { domain: "example.org", email: "alice@example.org", localpart: "alice" },
        { domain: "Example.NET", email: "bob@Example.NET", localpart: "bob" },
        { domain: "x.test", email: "\"c d\"@x.test", localpart: "\"c d\"" },
      ],
      unparseable: ["not-an-address"],
    });
  });

  test("answers 400 without addresses or with more than 8000 characters", async () => {
    expect((await env.call("/address/parse")).status).toBe(400);
    expect((await env.call(`/address/parse?addresses=${"a".repeat(8001)}`)).status).toBe(400);
  });
});

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

// The native GET /address/parse.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { form, startNative, type NativeEnv } from "./setup.ts";

setDefaultTimeout(60_000);

let env: NativeEnv;
beforeAll(async () => {
  env = await startNative({ dns: { "gmail.com": { mx: [{ exchange: "gmail-smtp-in.l.google.com", priority: 5 }] } } });
});
afterAll(async () => { await env.close(); });

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

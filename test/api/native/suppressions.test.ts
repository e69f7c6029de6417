// The native POST /{domain}/suppress.
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

// What a console session may do follows its key, as on the APIs: a domain key sees and changes only
// its own domain (others answer 404), cannot add domains or create account keys, and a key with
// grants is refused the areas it holds no grant for. Bad input answers 400 with a message.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { consoleSignedIn } from "./setup.ts";

setDefaultTimeout(60_000);

const ui = consoleSignedIn("domainKey");

describe("a domain key's console session", () => {
  test("lists only its own domain and gets 404 for another", async () => {
    expect((await (await ui.client.call("GET", "/domains")).json()).map((d: { name: string }) => d.name)).toEqual(["example.com"]);
    for (const path of ["/domains/other.test", "/domains/other.test/credentials", "/domains/other.test/webhooks", "/domains/other.test/suppressions"]) {
      expect((await ui.client.call("GET", path)).status).toBe(404);
    }
    expect((await ui.client.call("POST", "/domains/other.test/suppressions", { type: "bounces", address: "x@y.test" })).status).toBe(404);
  });

  test("cannot add a domain or create an account key; creates domain keys of its own domain only", async () => {
    expect((await ui.client.call("POST", "/domains", { name: "mine.example.net" })).status).toBe(403);
    expect((await ui.client.call("POST", "/keys", { kind: "account" })).status).toBe(403);
    expect((await ui.client.call("POST", "/keys", { kind: "domain", domain: "other.test" })).status).toBe(404);
    const made = await ui.client.call("POST", "/keys", { kind: "domain", domain: "example.com", label: "made-by-domain-key" });
    expect(made.status).toBe(200);
    expect((await made.json()).key).toMatch(/^sk\./);
  });

  test("sees and revokes only its own domain's keys", async () => {
    const keys = await (await ui.client.call("GET", "/keys")).json();
    expect(keys.every((k: { domain: string }) => k.domain === "example.com")).toBe(true);
    const other = (await ui.env.t.app.access.listKeys("other.test"))[0]!;
    expect((await ui.client.call("DELETE", `/keys/${other.id}`)).status).toBe(404);
    expect(await ui.env.t.app.access.getKey(other.id)).not.toBeNull();
  });

  test("stats default to its own domain and refuse another", async () => {
    expect((await (await ui.client.call("GET", "/stats")).json()).domain).toBe("example.com");
    expect((await ui.client.call("GET", "/stats?domain=other.test")).status).toBe(404);
  });
});

describe("grants", () => {
  test("a key holding only metrics/view reads stats and nothing else", async () => {
    const k = await ui.env.t.app.access.createKey({ kind: "account", grants: ["metrics/view"] });
    const c = await ui.env.signIn(k.key);
    expect((await c.call("GET", "/stats")).status).toBe(200);
    expect((await c.call("GET", "/keys")).status).toBe(403);
    expect((await c.call("GET", "/domains/example.com/suppressions")).status).toBe(403);
  });

  test("a key cannot hand out a grant it does not hold", async () => {
    const k = await ui.env.t.app.access.createKey({ kind: "account", grants: ["api_keys/manage"] });
    const c = await ui.env.signIn(k.key);
    expect((await c.call("POST", "/keys", { kind: "account", grants: ["metrics/view"] })).status).toBe(403);
    expect((await c.call("POST", "/keys", { kind: "account", grants: [] })).status).toBe(403);
    expect((await c.call("POST", "/keys", { kind: "account", grants: ["api_keys/manage"] })).status).toBe(200);
  });
});

describe("bad input", () => {
  test("answers 400 with a message, never a 5xx", async () => {
    const c = await ui.env.signIn(ui.env.t.accountKey);
    const cases: [string, string, unknown][] = [
      ["POST", "/domains", { name: "not a domain" }], ["POST", "/keys", { kind: "root" }], ["POST", "/keys", { grants: ["everything"] }],
      ["POST", "/domains/example.com/suppressions", { type: "nope", address: "a@b.test" }],
      ["POST", "/domains/example.com/suppressions", { type: "bounces", address: "not-an-address" }],
      ["POST", "/domains/example.com/webhooks", { format: "telegram", url: "http://127.0.0.1/x" }],
      ["POST", "/domains/example.com/webhooks", { format: "mailgun", url: "http://127.0.0.1/x", events: ["delivered", "opened"] }],
      ["PATCH", "/domains/example.com", { limit: "lots" }], ["PATCH", "/domains/example.com", { openTracking: "yes" }],
      ["GET", "/stats?range=weeks", undefined], ["POST", "/queue/retry", {}],
    ];
    for (const [method, path, body] of cases) {
      const res = await c.call(method, path, body);
      expect([method, path, res.status]).toEqual([method, path, 400]);
      expect(typeof (await res.json()).message).toBe("string");
    }
  });
});

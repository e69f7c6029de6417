// Console API keys and SMTP credentials (src/api/console/keys.ts) on a real postern: a created key's
// secret signs in and is shown once; revoked, it is refused; credentials authenticate SMTP.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { consoleSignedIn } from "./setup.ts";

setDefaultTimeout(60_000);
const ui = consoleSignedIn("accountKey");

describe("console keys", () => {
  test("create a labelled domain key with grants, see it listed without its secret, revoke it", async () => {
    const made = await (await ui.client.call("POST", "/keys", { kind: "domain", domain: "example.com", label: "ci", grants: ["metrics/view"] })).json();
    expect(typeof made.key).toBe("string");
    expect(typeof made.id).toBe("string");
    const listed = (await (await ui.client.call("GET", "/keys")).json()) as Record<string, unknown>[];
    const row = listed.find((k) => k.id === made.id)!;
    expect(row).toMatchObject({ label: "ci", domain: "example.com" });
    expect(JSON.stringify(listed)).not.toContain(made.key);
    const viaKey = await ui.env.signIn(made.key);
    expect((await viaKey.call("GET", "/stats")).status).toBe(200);
    expect(await (await ui.client.call("DELETE", `/keys/${made.id}`)).json()).toEqual({ message: "revoked", id: made.id });
    await expect(ui.env.signIn(made.key)).rejects.toThrow(/sign-in failed/);
    expect((await ui.client.call("DELETE", `/keys/${made.id}`)).status).toBe(404);
  });

  test("bad kinds and unknown grants are 400s", async () => {
    expect((await ui.client.call("POST", "/keys", { kind: "root", domain: "example.com" })).status).toBe(400);
    expect((await ui.client.call("POST", "/keys", { kind: "domain", domain: "example.com", grants: ["everything"] })).status).toBe(400);
    expect((await ui.client.call("POST", "/keys", { kind: "domain" })).status).toBe(400);
    expect((await (await ui.client.call("GET", "/grants")).json()).length).toBeGreaterThan(0);
  });
});

describe("console SMTP credentials", () => {
  test("a credential set in the console authenticates SMTP; deleted, it does not", async () => {
    await ui.client.call("POST", "/domains/example.com/credentials", { login: "relay", password: "a-long-password-1" });
    const list = (await (await ui.client.call("GET", "/domains/example.com/credentials")).json()) as { login: string }[];
    expect(list.map((c) => c.login)).toContain("relay@example.com");
    expect(await ui.env.t.app.access.authenticateSmtp("relay@example.com", "a-long-password-1")).not.toBeNull();
    expect(await (await ui.client.call("DELETE", `/domains/example.com/credentials/${encodeURIComponent("relay@example.com")}`)).json()).toEqual({ message: "deleted" });
    expect(await ui.env.t.app.access.authenticateSmtp("relay@example.com", "a-long-password-1")).toBeNull();
    expect((await ui.client.call("POST", "/domains/example.com/credentials", { password: "no-login-given" })).status).toBe(400);
  });
});

// Console sessions over HTTP: sign-in with an account or domain key, the cookie's attributes, the
// CSRF token on every write, sign-out and revocation ending the session, expiry, and no session
// (or a forged Origin) getting nothing.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startConsole, type ConsoleEnv } from "./setup.ts";
import { SESSION_TTL_MS } from "../../../src/core/sessions.ts";

setDefaultTimeout(60_000);

let env: ConsoleEnv;
let clock = Date.now();
beforeAll(async () => { env = await startConsole({ now: () => clock }); });
afterAll(async () => { await env.close(); });

describe("console sessions", () => {
  test("sign-in sets an HttpOnly, SameSite=Strict cookie scoped to /ui and answers who signed in", async () => {
    const res = await fetch(`${env.base}/ui/api/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ key: env.t.accountKey }) });
    expect(res.status).toBe(200);
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^postern_session=[0-9a-z]{30,}; Path=\/ui; HttpOnly; SameSite=Strict; Max-Age=28800$/);
    expect(cookie).not.toContain(env.t.accountKey);
    const body = (await res.json()) as { csrf: string };
    expect(body).toMatchObject({ signedIn: true, kind: "account", domain: null });
    expect(body.csrf).toMatch(/^[0-9a-z]{20,}$/);
  });

  test("a bad key, a form post or a foreign Origin cannot sign in", async () => {
    const post = (body: string, headers: Record<string, string>) => fetch(`${env.base}/ui/api/session`, { method: "POST", headers, body });
    expect((await post(JSON.stringify({ key: "pk.nope.nope" }), { "content-type": "application/json" })).status).toBe(401);
    expect((await post(`key=${env.t.accountKey}`, { "content-type": "application/x-www-form-urlencoded" })).status).toBe(403);
    expect((await post(JSON.stringify({ key: env.t.accountKey }), { "content-type": "application/json", origin: "https://evil.test" })).status).toBe(403);
  });

  // Read whole and parsed before anyone was signed in: a 50 MB JSON array cost 0.6 s and some 400 MB a request.
  test("a sign-in body is read only to its first 16 KB: a key past them, or a 50 MB body, signs nobody in", async () => {
    const post = (body: string) => fetch(`${env.base}/ui/api/session`, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect((await post(`{${" ".repeat(16_000)}"key":"${env.t.accountKey}"}`)).status).toBe(200);
    expect((await post(`{${" ".repeat(17_000)}"key":"${env.t.accountKey}"}`)).status).toBe(401);
    expect((await post(`[${"0,".repeat(25_000_000)}0]`)).status).toBe(401);
    const accept = await fetch(`${env.base}/ui/api/invitations/accept`, { method: "POST", headers: { "content-type": "application/json" }, body: `{${" ".repeat(17_000)}"token":"x"}` });
    expect(await accept.json()).toMatchObject({ field: "password" });
  });

  test("without a session the API answers 401 and GET /session says signed out", async () => {
    expect((await fetch(`${env.base}/ui/api/domains`)).status).toBe(401);
    expect(await (await fetch(`${env.base}/ui/api/session`)).json()).toEqual({ signedIn: false });
  });

  test("writes need the session's CSRF token and this site's Origin", async () => {
    const c = await env.signIn(env.t.accountKey);
    expect((await c.call("POST", "/domains", { name: "csrf.example.net" }, { csrf: false })).status).toBe(403);
    const forged = await c.call("POST", "/domains", { name: "csrf.example.net" }, { headers: { "x-csrf-token": "wrong" } });
    expect(forged.status).toBe(403);
    expect((await c.call("POST", "/domains", { name: "csrf.example.net" }, { headers: { origin: "https://evil.test" } })).status).toBe(403);
    expect(await env.t.app.domains.get("csrf.example.net")).toBeNull();
    expect((await c.call("POST", "/domains", { name: "csrf.example.net" })).status).toBe(200);
  });

  test("sign-out ends the session on the server", async () => {
    const c = await env.signIn(env.t.accountKey);
    expect((await c.call("DELETE", "/session", undefined, { csrf: false })).status).toBe(403);
    const out = await c.call("DELETE", "/session");
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    expect((await c.call("GET", "/domains")).status).toBe(401);
  });

  test("revoking the key that signed in ends its sessions", async () => {
    const k = await env.t.app.access.createKey({ kind: "account", label: "short-lived" });
    const c = await env.signIn(k.key);
    expect((await c.call("GET", "/domains")).status).toBe(200);
    await env.t.app.access.revokeKey(k.id);
    expect((await c.call("GET", "/domains")).status).toBe(401);
  });

  test("a session expires", async () => {
    const c = await env.signIn(env.t.accountKey);
    clock += SESSION_TTL_MS - 1000;
    expect((await c.call("GET", "/domains")).status).toBe(200);
    clock += 2000;
    expect((await c.call("GET", "/domains")).status).toBe(401);
  });

  test("the session token is stored only as a hash", async () => {
    const c = await env.signIn(env.t.accountKey);
    const token = c.cookie.split("=")[1]!;
    const { createHash } = await import("node:crypto");
    expect(await env.t.app.store.control.getSession(token)).toBeNull();
    expect(await env.t.app.store.control.getSession(createHash("sha256").update(token).digest("hex"))).not.toBeNull();
  });
});

describe("console sign-in and wrong keys", () => {
  test("after repeated wrong keys from one address, sign-in answers 429 even with a good key", async () => {
    const post = (key: string) => fetch(`${env.base}/ui/api/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ key }) });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await post(`pk.aaaaaaaaaaaa.${"b".repeat(32)}`)).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect((await post(env.t.accountKey)).status).toBe(429);
  });
});

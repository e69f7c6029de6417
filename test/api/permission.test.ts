// The permission model through the real HTTP handler: every mounted route of every surface
// declares a permission, and the scope matrix (account key, domain keys of two domains, restricted
// keys, a revoked key, no key × every route) holds. Refusals are 403 in the vendor's shape (404 on
// the native API for another domain); allowed calls are never 401/403-by-permission or 5xx.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { declaredPermission, type Permission } from "../../src/api/permission.ts";
import { decide } from "../../src/core/permissions.ts";
import { grantRights } from "../../src/api/grants.ts";
import type { Principal } from "../../src/core/model.ts";

let t: TestApp;
const keys: Record<string, string> = {};
const principals: Record<string, Principal> = {};

beforeAll(async () => {
  t = await makeTestApp();
  await t.app.domains.add("second.test");
  await t.app.domains.verify("second.test", true);
  const make = async (name: string, opts: Parameters<TestApp["app"]["access"]["createKey"]>[0]) => {
    keys[name] = (await t.app.access.createKey(opts)).key;
  };
  keys.account = t.accountKey;
  keys.domainA = t.domainKey;
  await make("domainB", { kind: "domain", domain: "second.test" });
  await make("metricsOnly", { kind: "account", grants: ["metrics/view"] });
  await make("viewOnlyDomain", { kind: "domain", domain: "example.com", grants: ["transmissions/view"] });
  await make("sendgridScoped", { kind: "account", grants: ["suppression.read", "stats.read"] });
  const revoked = await t.app.access.createKey({ kind: "account" });
  await t.app.access.revokeKey(revoked.id);
  keys.revoked = revoked.key;
  for (const [name, key] of Object.entries(keys)) if (name !== "revoked") principals[name] = (await t.app.access.authenticate(key))!;
});
afterAll(async () => { await t.close(); });

type Route = { method: string; path: string; hooks?: unknown };
const API_SURFACES = ["sendgrid", "mailgun", "sparkpost", "native"] as const;

function routesOf(surface: string): Route[] {
  return ((t.app.surfaces as Record<string, { routes?: Route[] }>)[surface]?.routes ?? []).filter((r) => r.method !== "ALL");
}

function headersFor(surface: string, key: string | null): Record<string, string> {
  if (key === null) return {};
  switch (surface) {
    case "sendgrid": return { authorization: `Bearer ${key}` };
    case "mailgun": return { authorization: `Basic ${Buffer.from(`api:${key}`).toString("base64")}` };
    case "sparkpost": return { authorization: key };
    default: return { "ov-token": key };
  }
}

/** Fills path parameters: the domain (example.com) and a harmless value for the rest. */
function concrete(path: string): { url: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  const url = path.replace(/:(\w+)/g, (_, name: string) => (params[name] = name === "domain" ? "example.com" : "nothing-here"));
  return { url, params };
}

let peerCount = 0;
async function call(surface: string, route: Route, key: string | null) {
  const { url } = concrete(route.path);
  const body = ["GET", "HEAD"].includes(route.method) ? undefined : "";
  // A peer of its own per call: wrong keys from one IP are throttled to 429 after ten (tested below).
  peerCount++;
  return t.app.http(new Request(`http://127.0.0.1:8025${url}`, { method: route.method, headers: headersFor(surface, key), body }),
    `10.9.${peerCount >> 8 & 255}.${peerCount & 255}`);
}

describe("every mounted route declares a permission", () => {
  test("the four API surfaces and any surface mounted beside them", () => {
    const missing: string[] = [];
    let count = 0;
    for (const [name, surface] of Object.entries(t.app.surfaces as Record<string, { routes?: Route[] }>)) {
      for (const r of surface.routes ?? []) {
        count++;
        if (!declaredPermission(r)) missing.push(`${name} ${r.method} ${r.path}`);
      }
    }
    for (const s of API_SURFACES) expect(routesOf(s).length).toBeGreaterThan(0);
    expect(count).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });
});

describe("failed keys are throttled per IP", () => {
  test("after ten wrong keys an IP's wrong keys get the vendor's 429; right keys keep working", async () => {
    const wrong = (peer: string) => t.app.http(new Request("http://127.0.0.1:8025/api/v1/account", { headers: { authorization: "pk.aaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb" } }), peer);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await wrong("10.200.0.1")).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    const limited = await wrong("10.200.0.1");
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe("1901");
    expect((await wrong("10.200.0.2")).status).toBe(401);
    const right = await t.app.http(new Request("http://127.0.0.1:8025/api/v1/account", { headers: { authorization: keys.account! } }), "10.200.0.1");
    expect(right.status).toBe(200);
  });
});

describe("the refusals the attack probes found", () => {
  const mg = (key: string) => ({ authorization: `Basic ${Buffer.from(`api:${key}`).toString("base64")}` });
  const form = (fields: Record<string, string>) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.append(k, v);
    return f;
  };

  test("a metrics/view key creates no SMTP credentials and reads no bounces through Mailgun, nor uses the native API", async () => {
    const cred = await t.app.http(new Request("http://127.0.0.1:8025/v3/domains/example.com/credentials", {
      method: "POST", headers: mg(keys.metricsOnly!), body: form({ login: "intruder", password: "a-long-password-123" }) }));
    expect(cred.status).toBe(403);
    expect(await t.app.access.listCredentials("example.com")).toEqual([]);
    const bounces = await t.app.http(new Request("http://127.0.0.1:8025/v3/example.com/bounces", { headers: mg(keys.metricsOnly!) }));
    expect(bounces.status).toBe(403);
    const native = await t.app.http(new Request("http://127.0.0.1:8025/domains", { headers: { "ov-token": keys.metricsOnly! } }));
    expect(native.status).toBe(403);
    const stats = await t.app.http(new Request("http://127.0.0.1:8025/v3/stats/total?event=delivered", { headers: mg(keys.metricsOnly!) }));
    expect(stats.status).toBe(200);
  });

  test("a domains-only key cannot set an SMTP password through a domain's smtp_password, and nothing is created", async () => {
    const domainsOnly = (await t.app.access.createKey({ kind: "account", grants: ["sending_domains/manage"] })).key;
    const res = await t.app.http(new Request("http://127.0.0.1:8025/v4/domains", { method: "POST", headers: mg(domainsOnly),
      body: form({ name: "pw.test", smtp_password: "a-long-password-123" }) }));
    expect(res.status).toBe(403);
    expect(await t.app.domains.get("pw.test")).toBeNull();
  });

  test("a transmissions/view domain key sends through no surface", async () => {
    const key = keys.viewOnlyDomain!;
    const sg = await t.app.http(new Request("http://127.0.0.1:8025/v3/mail/send", { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ personalizations: [{ to: [{ email: "r@dest.test" }] }], from: { email: "a@example.com" }, subject: "s", content: [{ type: "text/plain", value: "x" }] }) }));
    expect(sg.status).toBe(403);
    expect(await sg.json()).toEqual({ errors: [{ message: "access forbidden", field: null, help: null }] });
    const fields = { from: "a@example.com", to: "r@dest.test", subject: "s", text: "x" };
    const mgRes = await t.app.http(new Request("http://127.0.0.1:8025/v3/example.com/messages", { method: "POST", headers: mg(key), body: form(fields) }));
    expect(mgRes.status).toBe(403);
    const nat = await t.app.http(new Request("http://127.0.0.1:8025/example.com/messages", { method: "POST", headers: { "ov-token": key }, body: form(fields) }));
    expect(nat.status).toBe(403);
    const sp = await t.app.http(new Request("http://127.0.0.1:8025/api/v1/transmissions", { method: "POST", headers: { authorization: key, "content-type": "application/json" },
      body: JSON.stringify({ recipients: [{ address: "r@dest.test" }], content: { from: "a@example.com", subject: "s", text: "x" } }) }));
    expect(sp.status).toBe(403);
  });

  test("a key that may manage keys cannot revoke, change or create a key stronger than itself", async () => {
    const manager = (await t.app.access.createKey({ kind: "account", grants: ["api_keys/manage"] })).key;
    const strong = await t.app.access.createKey({ kind: "account", grants: ["api_keys/manage", "transmissions/modify"] });
    const sp = (method: string, path: string, body?: unknown) => t.app.http(new Request(`http://127.0.0.1:8025/api/v1/${path}`, {
      method, headers: { authorization: manager, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) }));
    expect((await sp("DELETE", `api-keys/${strong.id}`)).status).toBe(403);
    expect(await t.app.access.getKey(strong.id)).not.toBeNull();
    expect((await sp("PUT", `api-keys/${strong.id}`, { label: "mine" })).status).toBe(403);
    // Same rights in another vocabulary: a SendGrid scope for what api_keys/manage gives.
    expect((await sp("POST", "api-keys", { label: "same", grants: ["api_keys.read"] })).status).toBe(200);
    expect((await sp("POST", "api-keys", { label: "more", grants: ["mail.send"] })).status).toBe(403);
    const weak = await t.app.access.createKey({ kind: "account", grants: ["api_keys/manage"] });
    expect((await sp("DELETE", `api-keys/${weak.id}`)).status).toBe(204);
  });
});

// Last: the account key's calls change state (a domain is deleted on the way).
describe("scope matrix", () => {
  test("no key and a revoked key are 401 on every route of every surface", async () => {
    const wrong: string[] = [];
    for (const s of API_SURFACES) for (const r of routesOf(s)) {
      for (const key of [null, keys.revoked!]) {
        const res = await call(s, r, key);
        if (res.status !== 401) wrong.push(`${s} ${r.method} ${r.path} ${key ? "revoked" : "no key"}: ${res.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  for (const name of ["domainB", "metricsOnly", "viewOnlyDomain", "sendgridScoped", "domainA", "account"]) {
    test(`${name}: refused exactly where the declaration says, never 5xx`, async () => {
      const wrong: string[] = [];
      let refused = 0;
      for (const s of API_SURFACES) for (const r of routesOf(s)) {
        const permission = declaredPermission(r) as Permission;
        const refusal = decide(principals[name]!, permission, concrete(r.path).params, grantRights);
        const res = await call(s, r, keys[name]!);
        const where = `${s} ${r.method} ${r.path}: ${res.status}`;
        if (res.status >= 500 || res.status === 401) wrong.push(`${where} (${await res.text()})`);
        else if (refusal) {
          refused++;
          const expected = refusal.reason === "domain" && s === "native" ? 404 : 403;
          if (res.status !== expected) wrong.push(`${where}, expected ${expected} (${refusal.reason})`);
        } else if (res.status === 403 && /lacks the permission|needs an account|may not act on domain|sending keys may only/.test(await res.text())) {
          wrong.push(`${where}: refused by permission though allowed`);
        }
      }
      expect(wrong).toEqual([]);
      // Even the account key is refused somewhere: SendGrid's API takes domain keys only.
      expect(refused).toBeGreaterThan(0);
    });
  }
});

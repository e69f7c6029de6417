// Native API keys and the X-Postern-Tenant header (docs/tenants.md): a primary account key acts
// for a tenant named by id or name, and a key it makes so is that tenant's own; that key sees only
// its tenant and may name no other; a domain key names no tenant; an unknown tenant is 403; a
// suspended tenant is read-only; a key never makes or revokes a key with more rights than its own.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startNative, type NativeEnv } from "./setup.ts";

let env: NativeEnv;
let acmeKey = "";
beforeAll(async () => {
  env = await startNative();
  const acme = await env.t.app.tenants.add("acme");
  await env.t.app.tenants.add("beta");
  await env.t.app.domains.add("acme.test", { tenant: acme.id });
});
afterAll(async () => { await env.close(); });

const json = (body: unknown) => ({ method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });
const asTenant = (t: string, init: RequestInit & { key?: string } = {}) => ({ ...init, headers: { ...(init.headers as object), "x-postern-tenant": t } });

describe("native keys and X-Postern-Tenant", () => {
  test("a primary account key makes a key on behalf of a tenant: that tenant's own", async () => {
    const res = await env.call("/keys", asTenant("acme", json({ label: "acme ci" })));
    expect(res.status).toBe(200);
    const made = await res.json();
    expect(made).toMatchObject({ kind: "account", label: "acme ci", tenant: 1, grants: [] });
    acmeKey = made.key;
    expect((await env.t.app.access.listKeys(undefined, 1)).map((k) => k.id)).toEqual([made.id]);
    // By id as well as by name; the domain list is the tenant's.
    expect((await (await env.call("/domains", asTenant("1"))).json()).map((d: { name: string }) => d.name)).toEqual(["acme.test"]);
    const domainKey = await (await env.call("/keys", asTenant("acme", json({ kind: "domain", domain: "acme.test" })))).json();
    expect(domainKey).toMatchObject({ kind: "domain", domain: "acme.test", tenant: 1 });
    expect((await env.call("/keys", asTenant("acme", json({ kind: "domain", domain: "example.com" })))).status).toBe(404);
  });

  test("the tenant's key sees its own tenant only and names no other", async () => {
    const mine = await (await env.call("/keys", { key: acmeKey })).json();
    expect(new Set(mine.items.map((k: { tenant: number }) => k.tenant))).toEqual(new Set([1]));
    expect((await (await env.call("/domains", { key: acmeKey })).json()).map((d: { name: string }) => d.name)).toEqual(["acme.test"]);
    for (const other of ["0", "primary", "beta"]) expect((await env.call("/keys", asTenant(other, { key: acmeKey }))).status).toBe(403);
    expect((await env.call("/keys", asTenant("acme", { key: acmeKey }))).status).toBe(200);
    expect((await env.call("/keys", asTenant("acme", { key: env.otherKey }))).status).toBe(403);
    expect((await env.call("/keys", asTenant("nobody"))).status).toBe(403);
    // Without the header the primary's key lists the primary's keys only.
    const primary = await (await env.call("/keys")).json();
    expect(primary.items.every((k: { tenant: number }) => k.tenant === 0)).toBe(true);
  });

  test("a suspended tenant is read-only through the header too", async () => {
    await env.t.app.tenants.suspend("acme");
    try {
      expect((await env.call("/keys", asTenant("acme"))).status).toBe(200);
      const refused = await env.call("/keys", asTenant("acme", json({ label: "x" })));
      expect(refused.status).toBe(403);
      expect((await refused.json()).message).toMatch(/tenant 1 is suspended/);
    } finally {
      await env.t.app.tenants.setStatus("acme", "active");
    }
  });

  test("never more rights than the caller's; unknown rights refused; revoke", async () => {
    const limited = await (await env.call("/keys", json({ grants: ["keys.manage", "keys.read"] }))).json();
    expect((await env.call("/keys", { ...json({}), key: limited.key })).status).toBe(403);
    expect((await env.call("/keys", { ...json({ grants: ["keys.read"] }), key: limited.key })).status).toBe(200);
    expect((await env.call("/keys", json({ grants: ["no.such"] }))).status).toBe(400);
    expect((await env.call(`/keys/${limited.id}`, { method: "DELETE", key: acmeKey })).status).toBe(404);
    expect((await env.call(`/keys/${limited.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await env.call("/keys", { key: limited.key })).status).toBe(401);
  });
});

// The console and tenants over HTTP: the Tenants routes (owners and admins of every tenant, and the
// primary's account keys); a suspended tenant's users read but change nothing; a terminated
// tenant's users cannot sign in and their sessions end; the switcher makes the session of a user
// of every tenant act for one tenant (its keys are that tenant's, its lists that tenant's), and is
// refused to a user of one tenant.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startConsole, type ConsoleClient, type ConsoleEnv } from "./setup.ts";

let env: ConsoleEnv;
const PW = "correct horse battery";
const as = (email: string) => env.signInWith({ email, password: PW });

beforeAll(async () => {
  env = await startConsole();
  const app = env.t.app;
  const acme = await app.tenants.add("acme");
  await app.tenants.add("beta");
  await app.domains.add("acme.test", { tenant: acme.id });
  await app.team.users.add(null, { email: "boss@example.com", role: "owner", password: PW });
  await app.team.users.add(null, { email: "ann@example.com", role: "admin", tenant: acme.id, password: PW });
  await app.team.users.add(null, { email: "zero@example.com", role: "owner", tenant: 0, password: PW });
  await app.team.users.add(null, { email: "dev@example.com", role: "developer", password: PW });
});
afterAll(async () => { await env?.close(); });

const body = async (r: Response) => (await r.json()) as any;

describe("console tenants", () => {
  test("an owner of every tenant lists, adds, suspends and reactivates; others are refused", async () => {
    const boss = await as("boss@example.com");
    expect((await body(await boss.call("GET", "/tenants"))).tenants).toEqual([
      { id: 0, name: "primary", status: "active" }, { id: 1, name: "acme", status: "active" }, { id: 2, name: "beta", status: "active" }]);
    expect(await body(await boss.call("POST", "/tenants", { name: "gamma" }))).toEqual({ id: 3, name: "gamma", status: "active" });
    expect((await boss.call("POST", "/tenants", { name: "gamma" })).status).toBe(409);
    expect(await body(await boss.call("PUT", "/tenants/3", { status: "suspended" }))).toEqual({ id: 3, name: "gamma", status: "suspended" });
    expect((await body(await boss.call("PUT", "/tenants/gamma", { status: "active" }))).status).toBe("active");
    expect((await (await as("ann@example.com")).call("GET", "/tenants")).status).toBe(403);
    expect((await (await as("zero@example.com")).call("POST", "/tenants", { name: "delta" })).status).toBe(403);
    expect((await (await as("dev@example.com")).call("POST", "/tenants", { name: "delta" })).status).toBe(403);
    expect((await (await env.signIn(env.t.accountKey)).call("GET", "/tenants")).status).toBe(200);
  });

  test("a suspended tenant's user reads and changes nothing; reactivated, changes again", async () => {
    const ann = await as("ann@example.com");
    await env.t.app.tenants.suspend("acme");
    try {
      expect(await body(await ann.call("GET", "/session"))).toMatchObject({ tenant: 1, readOnly: true, switcher: false });
      expect((await ann.call("GET", "/keys")).status).toBe(200);
      expect((await body(await ann.call("GET", "/domains"))).map((d: { name: string }) => d.name)).toEqual(["acme.test"]);
      const refused = await ann.call("POST", "/keys", { kind: "account", label: "x" });
      expect(refused.status).toBe(403);
      expect((await body(refused)).message).toMatch(/tenant 1 is suspended/);
      expect((await ann.call("PATCH", "/domains/acme.test", { open_tracking: true })).status).toBe(403);
      expect((await ann.call("POST", "/domains", { name: "new.acme.test" })).status).toBe(403);
    } finally {
      await env.t.app.tenants.setStatus("acme", "active");
    }
    const made = await ann.call("POST", "/keys", { kind: "account", label: "acme's" });
    expect(made.status).toBe(200);
    expect((await body(made)).tenant).toBe(1);
  });

  test("the switcher: a user of every tenant acts for the tenant chosen; a user of one tenant cannot choose", async () => {
    const boss = await as("boss@example.com");
    expect(await body(await boss.call("GET", "/session"))).toMatchObject({ tenant: null, switcher: true });
    expect((await body(await boss.call("GET", "/session/tenants"))).tenants.map((t: { name: string }) => t.name)).toEqual(["primary", "acme", "beta", "gamma"]);
    expect((await boss.call("PUT", "/session/tenant", { tenant: "acme" })).status).toBe(200);
    expect(await body(await boss.call("GET", "/session"))).toMatchObject({ tenant: 1, switcher: true });
    expect((await body(await boss.call("GET", "/domains"))).map((d: { name: string }) => d.name)).toEqual(["acme.test"]);
    const key = await body(await boss.call("POST", "/keys", { kind: "account", label: "made for acme" }));
    expect(key.tenant).toBe(1);
    expect((await env.t.app.access.listKeys(undefined, 1)).map((k) => k.label)).toContain("made for acme");
    expect((await boss.call("POST", "/domains", { name: "two.acme.test" })).status).toBe(200);
    expect((await env.t.app.domains.get("two.acme.test"))?.tenantId).toBe(1);
    // Acting for acme, tenants are not managed (as with a vendor header): back to every tenant first.
    expect((await boss.call("GET", "/tenants")).status).toBe(403);
    await env.t.app.tenants.suspend("acme");
    expect((await boss.call("POST", "/keys", { kind: "account" })).status).toBe(403);
    expect((await boss.call("PUT", "/session/tenant", { tenant: null })).status).toBe(200);
    expect((await boss.call("POST", "/keys", { kind: "account", label: "primary's" })).status).toBe(200);
    await env.t.app.tenants.setStatus("acme", "active");
    expect((await boss.call("PUT", "/session/tenant", { tenant: "nope" })).status).toBe(404);
    // A choice the user may no longer make (the membership became beta's) falls back to the membership.
    expect((await boss.call("PUT", "/session/tenant", { tenant: "acme" })).status).toBe(200);
    const id = (await env.t.app.team.users.require("boss@example.com")).id;
    await env.t.app.store.control.updateUser(id, { tenant: 2 }, Date.now());
    expect(await body(await boss.call("GET", "/session"))).toMatchObject({ signedIn: true, tenant: 2, switcher: false });
    await env.t.app.store.control.updateUser(id, { tenant: null }, Date.now());
    await boss.call("PUT", "/session/tenant", { tenant: null });
    const ann = await as("ann@example.com");
    expect((await ann.call("PUT", "/session/tenant", { tenant: 2 })).status).toBe(403);
    expect((await body(await ann.call("GET", "/session/tenants"))).tenants).toEqual([]);
    expect((await (await as("zero@example.com")).call("PUT", "/session/tenant", { tenant: 1 })).status).toBe(403);
    expect((await (await env.signIn(env.t.accountKey)).call("PUT", "/session/tenant", { tenant: 1 })).status).toBe(403);
  });

  test("the switcher's choices are in the audit log: under the tenant chosen, as the user who chose", async () => {
    const boss = await as("boss@example.com");
    const id = (await env.t.app.team.users.require("boss@example.com")).id;
    expect((await boss.call("PUT", "/session/tenant", { tenant: "beta" })).status).toBe(200);
    expect((await boss.call("PUT", "/session/tenant", { tenant: null })).status).toBe(200);
    expect((await (await as("ann@example.com")).call("PUT", "/session/tenant", { tenant: 2 })).status).toBe(403);
    const res = await fetch(`${env.base}/audit?action=session.tenant&limit=2`, { headers: { "ov-token": env.t.accountKey } });
    const items = (await body(res)).items as { actor: { kind: string; id: string }; tenant: number; target: string }[];
    expect(items.map((e) => [e.actor, e.tenant, e.target])).toEqual([
      [{ kind: "user", id }, 0, "every tenant"], [{ kind: "user", id }, 2, "beta"]]);
  });

  test("a terminated tenant's users cannot sign in, and their open sessions end", async () => {
    const beta = (await env.t.app.tenants.require("beta")).id;
    await env.t.app.team.users.add(null, { email: "bo@example.com", role: "analyst", tenant: beta, password: PW });
    const bo: ConsoleClient = await as("bo@example.com");
    await env.t.app.tenants.setStatus("beta", "terminated");
    expect((await bo.call("GET", "/keys")).status).toBe(401);
    const res = await fetch(`${env.base}/ui/api/session`, { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "bo@example.com", password: PW }) });
    expect(res.status).toBe(403);
    expect((await body(res)).message).toMatch(/tenant 2 is terminated/);
  });
});

describe("console tenants: reading every tenant is not writing for every tenant", () => {
  test("a user of every tenant changes another tenant's domain only once switched to it (so a suspension holds, and the change is that tenant's)", async () => {
    const boss = await as("boss@example.com");
    await boss.call("PUT", "/session/tenant", { tenant: null });
    expect((await boss.call("GET", "/domains/acme.test")).status).toBe(200);
    await env.t.app.tenants.suspend("acme");
    try {
      expect((await boss.call("PATCH", "/domains/acme.test", { openTracking: true })).status).toBe(403);
      expect((await boss.call("POST", "/domains/acme.test/suppressions", { type: "bounces", address: "x@dest.test" })).status).toBe(403);
    } finally {
      await env.t.app.tenants.setStatus("acme", "active");
    }
    expect((await boss.call("PATCH", "/domains/acme.test", { openTracking: true })).status).toBe(403);
    expect((await boss.call("PUT", "/session/tenant", { tenant: "acme" })).status).toBe(200);
    expect((await boss.call("PATCH", "/domains/acme.test", { openTracking: true })).status).toBe(200);
    await boss.call("PUT", "/session/tenant", { tenant: null });
    const res = await fetch(`${env.base}/audit?action=domain.settings&limit=1`, { headers: { "ov-token": env.t.accountKey } });
    expect(((await body(res)).items as { tenant: number; target: string }[]).map((e) => [e.target, e.tenant])).toEqual([["acme.test", 1]]);
  });

  test("a user of every tenant, not switched to one, sees another tenant's key but does not revoke it", async () => {
    const boss = await as("boss@example.com");
    await boss.call("PUT", "/session/tenant", { tenant: null });
    const k = await env.t.app.access.createKey({ kind: "account", label: "acme's own", tenant: 1 });
    expect(((await body(await boss.call("GET", "/keys"))) as { id: string }[]).some((x) => x.id === k.id)).toBe(true);
    expect((await boss.call("DELETE", `/keys/${k.id}`)).status).toBe(403);
    expect(await env.t.app.access.getKey(k.id)).not.toBeNull();
    expect((await boss.call("PUT", "/session/tenant", { tenant: "acme" })).status).toBe(200);
    expect((await boss.call("DELETE", `/keys/${k.id}`)).status).toBe(200);
    await boss.call("PUT", "/session/tenant", { tenant: null });
  });
});

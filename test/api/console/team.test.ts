// Console users over real HTTP: password sign-in (and its lockout), roles mapped onto the one
// permission decision (an analyst cannot make a key, a developer can but cannot see the team, an
// admin cannot touch owners or roles), invitations (mailed through postern to the sink, accepted
// once), a removed user's session ending, and every act read back from GET /audit.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { startConsole, type ConsoleEnv } from "./setup.ts";

setDefaultTimeout(60_000);
let env: ConsoleEnv;
const PW = "correct horse battery";

beforeAll(async () => {
  env = await startConsole({ toml: `[console]\ninvite_from = "team@example.com"\n` });
  for (const [email, role] of [["owner@example.com", "owner"], ["admin@example.com", "admin"], ["dev@example.com", "developer"], ["ana@example.com", "analyst"]]) {
    await env.t.app.team.users.add(null, { email: email!, role: role!, password: PW });
  }
});
afterAll(() => env.close());

const audit = async (q = "") => ((await (await fetch(`${env.base}/audit${q}`, { headers: { "ov-token": env.t.accountKey } })).json()) as {
  items: { actor: { kind: string; id: string }; action: string; target: string }[] }).items;

test("password sign-in opens a session that says who and what role; a wrong password is refused", async () => {
  const c = await env.signInWith({ email: "Owner@Example.com", password: PW });
  expect(c.session).toMatchObject({ signedIn: true, kind: "account", role: "owner", userId: expect.any(String), mustEnrol: false });
  const me = await (await c.call("GET", "/me")).json();
  expect(me).toMatchObject({ email: "owner@example.com", role: "owner", totp: false, oidc: false });
  const wrong = await fetch(`${env.base}/ui/api/session`, { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "owner@example.com", password: "not the password" }) });
  expect(wrong.status).toBe(401);
  expect(((await wrong.json()) as { message: string }).message).toBe("wrong email or password");
  const signins = await audit("?action=user.signin");
  expect(signins[0]).toMatchObject({ actor: { kind: "user", id: c.session.userId }, target: "owner@example.com (password)" });
});

test("an analyst reads but cannot make a key; a developer can, but cannot see the team", async () => {
  const ana = await env.signInWith({ email: "ana@example.com", password: PW });
  expect((await ana.call("GET", "/keys")).status).toBe(200);
  const refused = await ana.call("POST", "/keys", { kind: "domain", domain: "example.com", grants: ["mail.send"] });
  expect(refused.status).toBe(403);
  expect((await refused.json()).message).toMatch(/keys\.manage/);
  const dev = await env.signInWith({ email: "dev@example.com", password: PW });
  const made = await dev.call("POST", "/keys", { kind: "domain", domain: "example.com", label: "dev", grants: ["mail.send"] });
  expect(made.status).toBe(200);
  const keyId = (await made.json()).id as string;
  expect((await dev.call("GET", "/users")).status).toBe(403);
  const entry = (await audit(`?action=key.create`)).find((e) => e.target === keyId);
  expect(entry?.actor).toEqual({ kind: "user", id: dev.session.userId });
  expect((await audit(`?actor=${ana.session.userId}&action=key`)).length).toBe(0);
});

test("admins invite and remove but touch neither owners nor roles; owners change roles", async () => {
  const admin = await env.signInWith({ email: "admin@example.com", password: PW });
  const { users } = await (await admin.call("GET", "/users")).json();
  const id = (email: string) => users.find((u: { email: string }) => u.email === email).id as string;
  expect((await admin.call("PUT", `/users/${id("dev@example.com")}`, { role: "admin" })).status).toBe(403);
  expect((await admin.call("DELETE", `/users/${id("owner@example.com")}`)).status).toBe(403);
  expect((await admin.call("POST", "/users", { email: "boss@example.com", role: "owner" })).status).toBe(403);
  const owner = await env.signInWith({ email: "owner@example.com", password: PW });
  const changed = await owner.call("PUT", `/users/${id("ana@example.com")}`, { role: "developer" });
  expect((await changed.json()).role).toBe("developer");
  expect((await owner.call("PUT", `/users/${id("ana@example.com")}`, { role: "boss" })).status).toBe(400);
  expect((await owner.call("PUT", `/users/${id("owner@example.com")}`, { role: "analyst" })).status).toBe(403);
  expect((await owner.call("DELETE", `/users/${id("owner@example.com")}`)).status).toBe(403);
  await owner.call("PUT", `/users/${id("ana@example.com")}`, { role: "analyst" });
  expect((await audit("?action=user.role")).map((e) => e.target)).toEqual(["ana@example.com", "ana@example.com"]);
});

test("an invitation goes out through postern, is accepted once, and its user signs in; removing a user ends their session", async () => {
  const admin = await env.signInWith({ email: "admin@example.com", password: PW });
  const res = await admin.call("POST", "/users", { email: "new@example.com", role: "developer" });
  expect(res.status).toBe(200);
  const r = await res.json();
  expect(r).toMatchObject({ user: { email: "new@example.com", role: "developer" }, sent: true });
  const token = /#\/accept\/([0-9a-z]+)$/.exec(r.link)![1]!;
  const mail = await env.sink.waitFor(1, 30_000);
  expect(mail.some((m) => m.to.includes("new@example.com") && m.raw.toString().replace(/=\r?\n/g, "").includes(token))).toBe(true);
  // No password yet: nobody signs in as the invited user before the link is used.
  expect((await fetch(`${env.base}/ui/api/session`, { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "new@example.com", password: "" }) })).status).toBe(401);
  const accept = (password: string) => fetch(`${env.base}/ui/api/invitations/accept`, { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ token, password }) });
  expect((await accept("short")).status).toBe(400);
  expect((await accept("a brand new password")).status).toBe(200);
  expect((await accept("a brand new password")).status).toBe(400);
  const newbie = await env.signInWith({ email: "new@example.com", password: "a brand new password" });
  expect((await newbie.call("GET", "/domains")).status).toBe(200);
  expect((await admin.call("DELETE", `/users/${newbie.session.userId}`)).status).toBe(200);
  expect((await newbie.call("GET", "/domains")).status).toBe(401);
  const acts = (await audit("?action=user")).filter((e) => e.target.startsWith("new@")).map((e) => `${e.action} ${e.actor.kind}`);
  expect(acts).toEqual(["user.remove user", "user.signin user", "user.accept user", "user.invite user", "user.add user"]);
});

test("a password reset from the machine ends the user's sessions", async () => {
  await env.t.app.team.users.add(null, { email: "reset@example.com", role: "analyst", password: PW });
  const before = await env.signInWith({ email: "reset@example.com", password: PW });
  expect((await before.call("GET", "/domains")).status).toBe(200);
  const fresh = await env.t.app.team.users.reset("reset@example.com");
  expect((await before.call("GET", "/domains")).status).toBe(401);
  const after = await env.signInWith({ email: "reset@example.com", password: fresh });
  expect((await after.call("GET", "/domains")).status).toBe(200);
});


test("wrong passwords lock the address and the account out, as wrong keys do", async () => {
  const attempt = (email: string, password: string) => fetch(`${env.base}/ui/api/session`, { method: "POST",
    headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) });
  let status = 0;
  for (let i = 0; i < 15 && status !== 429; i++) status = (await attempt("dev@example.com", `wrong ${i}`)).status;
  expect(status).toBe(429);
  expect((await attempt("dev@example.com", PW)).status).toBe(429);
});

test("tenants: an owner of one tenant sees and manages only its tenant's users, and invites for its tenant only", async () => {
  const acme = await env.t.app.tenants.add("acme");
  await env.t.app.team.users.add(null, { email: "ann@acme.test", role: "owner", tenant: acme.id, password: PW });
  await env.t.app.team.users.add(null, { email: "bob@acme.test", role: "analyst", tenant: acme.id, password: PW });
  // The lockout test above leaves this address throttled for a second.
  const ann = await retryThrottled(() => env.signInWith({ email: "ann@acme.test", password: PW }));
  const listed = (await (await ann.call("GET", "/users")).json()).users as { id: string; email: string; tenant: number | null }[];
  expect(listed.map((u) => u.email).sort()).toEqual(["ann@acme.test", "bob@acme.test"]);
  const owner = (await env.t.app.team.users.require("owner@example.com")).id;
  expect((await ann.call("PUT", `/users/${owner}`, { role: "analyst" })).status).toBe(404);
  expect((await ann.call("DELETE", `/users/${owner}`)).status).toBe(404);
  expect((await env.t.app.team.users.require("owner@example.com")).role).toBe("owner");
  const invited = await (await ann.call("POST", "/users", { email: "cat@acme.test", role: "admin" })).json();
  expect(invited.user).toMatchObject({ email: "cat@acme.test", tenant: acme.id });
  const bob = listed.find((u) => u.email === "bob@acme.test")!.id;
  expect((await ann.call("PUT", `/users/${bob}`, { role: "developer" })).status).toBe(200);
  // A tenant's all-rights account key stands for that tenant's owner, not the machine's.
  const key = await env.signIn((await env.t.app.access.createKey({ kind: "account", tenant: acme.id })).key);
  expect(((await (await key.call("GET", "/users")).json()).users as { tenant: number | null }[]).every((u) => u.tenant === acme.id)).toBe(true);
  expect((await (await key.call("POST", "/users", { email: "dan@acme.test", role: "owner" })).json()).user.tenant).toBe(acme.id);
});

async function retryThrottled<T>(fn: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try { return await fn(); } catch (e) { if (i > 50 || !String(e).includes("429")) throw e; await Bun.sleep(100); }
  }
}

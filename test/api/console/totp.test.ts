// TOTP over real HTTP: enrolment (a pending secret as an otpauth:// URI, confirmed by a code made
// from it, ten recovery codes), then sign-in asks for a code, refuses a wrong one (counted like a
// wrong password), takes a right one or a recovery code once; `[console] require_totp` lets a
// user without TOTP do nothing but enrol. Codes are computed here from the secret the server showed.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startConsole, type ConsoleEnv } from "./setup.ts";
import { totp } from "../../../src/core/team/totp.ts";

setDefaultTimeout(60_000);
const PW = "correct horse battery";
const signIn = (env: ConsoleEnv, body: Record<string, string>) => fetch(`${env.base}/ui/api/session`, { method: "POST",
  headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("optional TOTP", () => {
  let env: ConsoleEnv;
  beforeAll(async () => {
    env = await startConsole();
    await env.t.app.team.users.add(null, { email: "amy@example.com", role: "developer", password: PW });
  });
  afterAll(() => env.close());

  test("enrol, then sign in with a code; a wrong code is refused; a recovery code works once", async () => {
    const amy = await env.signInWith({ email: "amy@example.com", password: PW });
    const start = await (await amy.call("POST", "/me/totp")).json();
    expect(start.uri).toBe(`otpauth://totp/postern%3Aamy%40example.com?secret=${start.secret}&issuer=postern&algorithm=SHA1&digits=6&period=30`);
    expect(start.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(Buffer.from(start.qr.replace(/^data:image\/svg\+xml;base64,/, ""), "base64").toString()).toStartWith("<svg");
    // Not on until confirmed: sign-in still needs no code.
    expect((await signIn(env, { email: "amy@example.com", password: PW })).status).toBe(200);
    const wrongConfirm = await amy.call("POST", "/me/totp/confirm", { code: totp(start.secret, Date.now() - 300_000) });
    expect(wrongConfirm.status).toBe(400);
    // One instant for the codes that follow it: two calls of Date.now() may fall either side of a 30 s step.
    const confirmedAt = Date.now();
    const confirmCode = totp(start.secret, confirmedAt);
    const confirmed = await (await amy.call("POST", "/me/totp/confirm", { code: confirmCode })).json();
    expect(confirmed.recovery_codes.length).toBe(10);
    expect(new Set(confirmed.recovery_codes).size).toBe(10);

    const noCode = await signIn(env, { email: "amy@example.com", password: PW });
    expect(noCode.status).toBe(401);
    expect(await noCode.json()).toEqual({ message: "enter the code of your authenticator app (or a recovery code)", field: "code" });
    const wrong = await signIn(env, { email: "amy@example.com", password: PW, code: totp(start.secret, Date.now() + 600_000) });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ message: "wrong code", field: "code" });
    expect((await signIn(env, { email: "amy@example.com", password: "wrong password", code: totp(start.secret, Date.now()) })).status).toBe(401);
    // The code that confirmed enrolment is used up; the next step's code (within the window) is not.
    expect((await signIn(env, { email: "amy@example.com", password: PW, code: confirmCode })).status).toBe(401);
    const next = totp(start.secret, confirmedAt + 30_000);
    expect((await signIn(env, { email: "amy@example.com", password: PW, code: next })).status).toBe(200);
    expect((await signIn(env, { email: "amy@example.com", password: PW, code: next })).status).toBe(401);
    const recovery = confirmed.recovery_codes[3].toUpperCase();
    expect((await signIn(env, { email: "amy@example.com", password: PW, code: recovery })).status).toBe(200);
    expect((await signIn(env, { email: "amy@example.com", password: PW, code: recovery })).status).toBe(401);
    const list = await env.t.app.team.users.list();
    expect(list.find((u) => u.email === "amy@example.com")?.totp).toBe(true);
    const audit = await (await fetch(`${env.base}/audit?action=user.totp`, { headers: { "ov-token": env.t.accountKey } })).json() as { items: { actor: { id: string } }[] };
    expect(audit.items.map((e) => e.actor.id)).toEqual([amy.session.userId]);
  });

  test("a key session has no TOTP of its own; wrong codes lock out like wrong passwords", async () => {
    const key = await env.signIn(env.t.accountKey);
    expect((await key.call("POST", "/me/totp")).status).toBe(400);
    let status = 0;
    for (let i = 0; i < 15 && status !== 429; i++) status = (await signIn(env, { email: "amy@example.com", password: PW, code: "000000" })).status;
    expect(status).toBe(429);
  });
});

describe("[console] require_totp", () => {
  let env: ConsoleEnv;
  beforeAll(async () => {
    env = await startConsole({ toml: `[console]\nrequire_totp = true\n` });
    await env.t.app.team.users.add(null, { email: "bob@example.com", role: "owner", password: PW });
  });
  afterAll(() => env.close());

  test("a user without TOTP may only enrol; once enrolled, a code is needed and everything answers", async () => {
    const bob = await env.signInWith({ email: "bob@example.com", password: PW });
    expect(bob.session.mustEnrol).toBe(true);
    const refused = await bob.call("GET", "/domains");
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toMatch(/two-factor/);
    expect((await bob.call("POST", "/keys", { kind: "account" })).status).toBe(403);
    const start = await (await bob.call("POST", "/me/totp")).json();
    expect((await bob.call("POST", "/me/totp/confirm", { code: totp(start.secret, Date.now()) })).status).toBe(200);
    expect((await bob.call("GET", "/domains")).status).toBe(200);
    expect((await signIn(env, { email: "bob@example.com", password: PW })).status).toBe(401);
    const again = await env.signInWith({ email: "bob@example.com", password: PW, code: totp(start.secret, Date.now() + 30_000) });
    expect(again.session.mustEnrol).toBe(false);
  });
});

// Single sign-on asks for the second factor, in a real browser against a real OpenID Connect
// provider (npm's oidc-provider, started here): a user with TOTP comes back from the provider to
// the console's code step, a wrong code is refused and the right one signs in; the code step is
// used once; wrong codes count in the password sign-in's lockout. With `[console] require_totp`,
// a user without TOTP who signs in through the provider may only enrol (the Security page opens).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "puppeteer-core";
import { startConsole, type ConsoleEnv } from "../api/console/setup.ts";
import { startOidcProvider, type OidcProviderHandle } from "../helpers/oidc-provider.ts";
import { freePort } from "../helpers/free-port.ts";
import { totp } from "../../src/core/team/totp.ts";
import { clickButton, clickLink, fill, launch, waitForText, type Driven } from "./browser.ts";

declare const document: any;
setDefaultTimeout(120_000);

interface Site { env: ConsoleEnv; idp: OidcProviderHandle }
let sso: Site;
let strict: Site;
let b: Driven;
let page: Page;
let secret = "";

/** A console with single sign-on against its own provider (one redirect URI each). */
async function site(extra = ""): Promise<Site> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const idp = await startOidcProvider(`${base}/ui/oidc/callback`);
  const env = await startConsole({ listen: `127.0.0.1:${port}`, publicUrl: base,
    toml: `[console]\n${extra}\n[console.oidc]\nissuer = "${idp.issuer}"\nclient_id = "${idp.clientId}"\nclient_secret = "${idp.clientSecret}"\n` });
  return { env, idp };
}

beforeAll(async () => {
  sso = await site();
  strict = await site("require_totp = true");
  sso.idp.accounts.set("tia-sub", { email: "tia@example.com", email_verified: true });
  strict.idp.accounts.set("sam-sub", { email: "sam@example.com", email_verified: true });
  const tia = await sso.env.t.app.team.users.add(null, { email: "tia@example.com", role: "developer" });
  const enrol = await sso.env.t.app.team.enrolment.start(tia.id);
  secret = enrol.secret;
  await sso.env.t.app.team.enrolment.confirm(tia.id, totp(secret, Date.now()));
  await strict.env.t.app.team.users.add(null, { email: "sam@example.com", role: "analyst" });
  b = await launch();
  page = b.page;
});
afterAll(async () => {
  await b?.close();
  for (const s of [sso, strict]) { await s?.env.close(); await s?.idp.close(); }
});

/** Through the console's button to the provider's login form, as `login`; returns where the browser ends. */
async function viaProvider(s: Site, login: string): Promise<string> {
  const cdp = await page.createCDPSession();
  await cdp.send("Network.clearBrowserCookies");
  await page.goto(`${s.env.base}/ui`);
  await clickLink(page, "Sign in with single sign-on");
  await page.waitForSelector("input[name=login]");
  await page.type("input[name=login]", login);
  await page.type("input[name=password]", "anything");
  await Promise.all([page.waitForNavigation({ waitUntil: "networkidle0" }), page.click("button[type=submit]")]);
  for (let i = 0; i < 50 && page.url().startsWith(s.idp.issuer); i++) await Bun.sleep(100);
  return page.url();
}
const signedIn = () => page.waitForFunction(() => !document.getElementById("signout")!.hidden);
/** A code of the step after enrolment's (a step's code signs in once; the next step's is accepted). */
const nextCode = () => totp(secret, Date.now() + 30_000);
const signinPost = (code: string): Promise<{ status: number; body: { message?: string } }> => page.evaluate(async (c: string) => {
  const res = await fetch("/ui/api/session", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ code: c }) });
  return { status: res.status, body: await res.json() };
}, code) as Promise<{ status: number; body: { message?: string } }>;

describe("single sign-on and TOTP in Chromium", () => {
  test("a user with TOTP is asked for the code: a wrong one is refused, the right one signs in", async () => {
    expect(await viaProvider(sso, "tia-sub")).toBe(`${sso.env.base}/ui#/sso-code`);
    await waitForText(page, "Two-factor sign-in");
    expect(await page.$eval("#signout", (e: any) => e.hidden)).toBe(true);
    // Nothing is open yet: the console's API answers 401.
    expect((await page.evaluate(async () => (await fetch("/ui/api/domains")).status))).toBe(401);
    await fill(page, "Code", "000000");
    await clickButton(page, "Sign in");
    await waitForText(page, "wrong code");
    await fill(page, "Code", nextCode());
    await clickButton(page, "Sign in");
    await signedIn();
    expect(await page.$eval("#who", (e: any) => e.textContent)).toBe("developer");
    expect(page.url()).toBe(`${sso.env.base}/ui#/domains`);
    await waitForText(page, "example.com");
  });

  test("the code step is used once: after it signed in, its cookie is gone and a replay is refused", async () => {
    const r = await signinPost(nextCode());
    expect(r.status).toBe(401);
  });

  test("wrong codes count in the sign-in lockout: after ten, even the right code waits (429)", async () => {
    expect(await viaProvider(sso, "tia-sub")).toBe(`${sso.env.base}/ui#/sso-code`);
    // This address failed twice already (the first test's wrong code, the replay): eight more make
    // the ten failures the lockout lets pass, and the tenth locks it.
    for (let i = 0; i < 8; i++) expect((await signinPost(String(100000 + i))).body.message).toBe("wrong code");
    const locked = await signinPost(totp(secret, Date.now() + 60_000));
    expect(locked.status).toBe(429);
    expect(locked.body.message).toMatch(/too many failed sign-ins/);
  });

  test("[console] require_totp: a user without TOTP signed in by the provider may only enrol", async () => {
    expect(await viaProvider(strict, "sam-sub")).toBe(`${strict.env.base}/ui#/domains`);
    await signedIn();
    const status = await page.evaluate(async () => (await fetch("/ui/api/domains")).status);
    expect(status).toBe(403);
    const me = await page.evaluate(async () => (await fetch("/ui/api/me")).json());
    expect(me).toMatchObject({ email: "sam@example.com", mustEnrol: true });
  });

  test("the sign-ins are in the audit log as (oidc)", async () => {
    const items = ((await (await fetch(`${sso.env.base}/audit?action=user.signin`, { headers: { "ov-token": sso.env.t.accountKey } })).json()) as {
      items: { target: string }[] }).items;
    expect(items.map((e) => e.target)).toEqual(["tia@example.com (oidc)"]);
  });

  test("no uncaught page error", () => {
    expect(b.errors.filter((e) => !e.includes("Failed to load resource"))).toEqual([]);
  });
});

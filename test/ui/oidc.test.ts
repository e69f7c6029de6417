// Single sign-on in a real browser against a real OpenID Connect provider (npm's oidc-provider on
// 127.0.0.1, started here): "Sign in with single sign-on" goes to the provider's login form and back
// through <public_url>/ui/oidc/callback with PKCE; the first sign-in links the user whose email the
// provider verified; another subject with that email is refused (a link never moves); an address
// without a user is refused (auto_create = false), as is an unverified one. Read back from GET /audit.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "puppeteer-core";
import { startConsole, type ConsoleEnv } from "../api/console/setup.ts";
import { startOidcProvider, type OidcProviderHandle } from "../helpers/oidc-provider.ts";
import { freePort } from "../helpers/free-port.ts";
import { clickLink, launch, waitForText, type Driven } from "./browser.ts";

declare const document: any;
setDefaultTimeout(120_000);

let env: ConsoleEnv;
let idp: OidcProviderHandle;
let b: Driven;
let page: Page;

beforeAll(async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  idp = await startOidcProvider(`${base}/ui/oidc/callback`);
  idp.accounts.set("amy-sub", { email: "Amy@Example.com", email_verified: true });
  idp.accounts.set("amy-other-sub", { email: "amy@example.com", email_verified: true });
  idp.accounts.set("zed-sub", { email: "zed@example.com", email_verified: true });
  idp.accounts.set("bob-unverified", { email: "bob@example.com", email_verified: false });
  env = await startConsole({ listen: `127.0.0.1:${port}`, publicUrl: base,
    toml: `[console.oidc]\nissuer = "${idp.issuer}"\nclient_id = "${idp.clientId}"\nclient_secret = "${idp.clientSecret}"\n` });
  await env.t.app.team.users.add(null, { email: "amy@example.com", role: "developer" });
  await env.t.app.team.users.add(null, { email: "bob@example.com", role: "analyst" });
  b = await launch();
  page = b.page;
});
afterAll(async () => { await b?.close(); await env?.close(); await idp?.close(); });

/** Through the console's button to the provider's login form, as `login`; returns where the browser ends. */
async function viaProvider(login: string): Promise<string> {
  const cdp = await page.createCDPSession();
  await cdp.send("Network.clearBrowserCookies");
  await page.goto(`${env.base}/ui`);
  await clickLink(page, "Sign in with single sign-on");
  await page.waitForSelector("input[name=login]");
  expect(page.url().startsWith(idp.issuer)).toBe(true);
  await page.type("input[name=login]", login);
  await page.type("input[name=password]", "anything");
  await Promise.all([page.waitForNavigation({ waitUntil: "networkidle0" }), page.click("button[type=submit]")]);
  for (let i = 0; i < 50 && page.url().startsWith(idp.issuer); i++) await Bun.sleep(100);
  return page.url();
}
const audit = async (q: string) => ((await (await fetch(`${env.base}/audit${q}`, { headers: { "ov-token": env.t.accountKey } })).json()) as {
  items: { actor: { kind: string; id: string }; action: string; target: string }[] }).items;

describe("OpenID Connect sign-in in Chromium", () => {
  test("the first sign-in links the user with the verified email and signs them in", async () => {
    const url = await viaProvider("amy-sub");
    expect(url).toBe(`${env.base}/ui#/domains`);
    await page.waitForFunction(() => !document.getElementById("signout")!.hidden);
    expect(await page.$eval("#who", (e: any) => e.textContent)).toBe("developer");
    await waitForText(page, "example.com");
    const amy = (await env.t.app.team.users.list()).find((u) => u.email === "amy@example.com")!;
    expect(amy.oidc).toBe(true);
    expect((await env.t.app.store.control.getUser({ id: amy.id }))?.oidcSubject).toBe("amy-sub");
  });

  test("the linked subject signs in again; another subject with the same email is refused", async () => {
    expect(await viaProvider("amy-sub")).toBe(`${env.base}/ui#/domains`);
    await viaProvider("amy-other-sub");
    expect(await page.$eval("#error", (e: any) => e.textContent)).toBe("amy@example.com is already linked to another single sign-on identity");
  });

  test("no user with that email (auto_create off), or an unverified email: refused, nobody created", async () => {
    await viaProvider("zed-sub");
    expect(await page.$eval("#error", (e: any) => e.textContent)).toBe("no console user is zed@example.com: ask an owner to invite you");
    await viaProvider("bob-unverified");
    expect(await page.$eval("#error", (e: any) => e.textContent)).toMatch(/no verified email/);
    expect((await env.t.app.team.users.list()).map((u) => u.email)).toEqual(["amy@example.com", "bob@example.com"]);
  });

  test("a callback without the browser's state cookie is refused", async () => {
    const res = await fetch(`${env.base}/ui/oidc/callback?state=forged&code=x`, { redirect: "manual" });
    expect(res.status).toBe(401);
  });

  test("the link and both sign-ins are in the audit log, as Amy's", async () => {
    const amy = (await env.t.app.team.users.list()).find((u) => u.email === "amy@example.com")!;
    expect((await audit("?action=user.link")).map((e) => [e.actor.id, e.target])).toEqual([[amy.id, "amy@example.com"]]);
    expect((await audit("?action=user.signin")).map((e) => [e.actor.id, e.target])).toEqual([[amy.id, "amy@example.com (oidc)"], [amy.id, "amy@example.com (oidc)"]]);
  });

  // The provider's login page asks for fonts from the Internet (unreachable here) and the refusals
  // answer 401/403: failed loads are expected; an uncaught exception is not.
  test("no uncaught page error", () => {
    expect(b.errors.filter((e) => !e.includes("Failed to load resource"))).toEqual([]);
  });
});

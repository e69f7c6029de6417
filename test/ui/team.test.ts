// The team in a real browser (headless Chromium through puppeteer-core): a user signs in with email
// and password, enrols TOTP on the Security page (the otpauth:// URI shown as text; the code typed
// is computed here from the secret the page shows), signs out and back in with a code after a wrong
// one is refused; an owner invites from the Team page and the link sets a password; an analyst's
// Create key is refused. Every act is then read back from GET /audit.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "puppeteer-core";
import { startConsole, type ConsoleEnv } from "../api/console/setup.ts";
import { totp } from "../../src/core/team/totp.ts";
import { choose, clickButton, clickLink, fill, launch, screenshot, waitForText, type Driven } from "./browser.ts";

declare const document: any;
setDefaultTimeout(120_000);

let env: ConsoleEnv;
let b: Driven;
let page: Page;
let secret = "";
const PW = "correct horse battery";

beforeAll(async () => {
  env = await startConsole();
  await env.t.app.team.users.add(null, { email: "owner@example.com", role: "owner", password: PW });
  await env.t.app.team.users.add(null, { email: "ana@example.com", role: "analyst", password: PW });
  b = await launch();
  page = b.page;
});
afterAll(async () => { await b?.close(); await env?.close(); });

async function signInUser(email: string, password: string) {
  await page.goto(`${env.base}/ui`);
  await fill(page, "Email", email);
  await fill(page, "Password", password);
  await clickButton(page, "Sign in with password");
}
const signedIn = () => page.waitForFunction(() => !document.getElementById("signout")!.hidden);
async function signOut() {
  await clickButton(page, "Sign out");
  await page.waitForFunction(() => !document.getElementById("signin")!.hidden);
}
const audit = async (q: string) => ((await (await fetch(`${env.base}/audit${q}`, { headers: { "ov-token": env.t.accountKey } })).json()) as {
  items: { actor: { kind: string; id: string }; action: string; target: string }[] }).items;

describe("the team in Chromium", () => {
  test("password sign-in, then TOTP enrolment on the Security page", async () => {
    await signInUser("owner@example.com", PW);
    await signedIn();
    expect(await page.$eval("#who", (e: any) => e.textContent)).toBe("owner");
    await clickLink(page, "Security");
    await clickButton(page, "Set up TOTP");
    const uri = await page.locator("#totp-uri").map((e: any) => e.textContent ?? "").wait();
    secret = await page.$eval("#totp-secret", (e: any) => e.textContent);
    // The QR code is drawn (an SVG data: image the CSP allows).
    await page.waitForFunction(() => document.getElementById("totp-qr")?.naturalWidth > 0);
    expect(uri).toBe(`otpauth://totp/postern%3Aowner%40example.com?secret=${secret}&issuer=postern&algorithm=SHA1&digits=6&period=30`);
    await fill(page, "Code from the app", totp(secret, Date.now()));
    await clickButton(page, "Confirm");
    await waitForText(page, "Recovery codes");
    const codes = (await page.$eval(".secret-value", (e: any) => e.textContent)).split(/\s+/);
    expect(codes.length).toBe(10);
    await screenshot(page, "security");
    await signOut();
  });

  test("signing in asks for the code, refuses a wrong one and takes the right one", async () => {
    await signInUser("owner@example.com", PW);
    await waitForText(page, "enter the code of your authenticator app");
    await fill(page, "Code", totp(secret, Date.now() + 600_000));
    await clickButton(page, "Sign in with password");
    await waitForText(page, "wrong code");
    expect(await page.$eval("#signout", (e: any) => e.hidden)).toBe(true);
    await fill(page, "Password", PW);
    await fill(page, "Code", totp(secret, Date.now() + 30_000));
    await clickButton(page, "Sign in with password");
    await signedIn();
  });

  test("an owner invites from the Team page; the link sets a password that signs in", async () => {
    await clickLink(page, "Team");
    await waitForText(page, "ana@example.com");
    await fill(page, "Email", "dev@example.com");
    await choose(page, "Role", "developer");
    await clickButton(page, "Invite");
    const link = await page.locator(".secret-value").map((e: any) => e.textContent ?? "").wait();
    expect(link).toMatch(/\/ui\/#\/accept\/[0-9a-z]+$/);
    await screenshot(page, "team");
    await signOut();
    await page.goto(link.replace(/^https?:\/\/[^/]+/, env.base));
    await fill(page, "New password", "the developer's password");
    await clickButton(page, "Set password");
    await waitForText(page, "Your password is set");
    await signInUser("dev@example.com", "the developer's password");
    await signedIn();
    expect(await page.$eval("#who", (e: any) => e.textContent)).toBe("developer");
    expect(await page.$eval("#nav-team", (e: any) => e.hidden)).toBe(true);
    await signOut();
  });

  test("an analyst cannot make a key", async () => {
    await signInUser("ana@example.com", PW);
    await signedIn();
    await clickLink(page, "API keys");
    await choose(page, "Kind", "domain");
    await fill(page, "Label", "analyst-made");
    await clickButton(page, "Create key");
    await waitForText(page, "lacks the permission keys.manage");
    expect((await env.t.app.access.listKeys()).some((k) => k.label === "analyst-made")).toBe(false);
    await signOut();
  });

  test("every act is in the audit log", async () => {
    const users = await env.t.app.team.users.list();
    const id = (email: string) => users.find((u) => u.email === email)!.id;
    const signins = (await audit("?action=user.signin")).map((e) => `${e.actor.id} ${e.target}`);
    expect(signins).toEqual([`${id("ana@example.com")} ana@example.com (password)`, `${id("dev@example.com")} dev@example.com (password)`,
      `${id("owner@example.com")} owner@example.com (password)`, `${id("owner@example.com")} owner@example.com (password)`]);
    expect((await audit("?action=user.totp"))[0]).toMatchObject({ actor: { kind: "user", id: id("owner@example.com") }, target: "owner@example.com" });
    expect((await audit("?action=user.invite"))[0]).toMatchObject({ actor: { kind: "user", id: id("owner@example.com") }, target: "dev@example.com" });
    expect((await audit("?action=user.accept"))[0]).toMatchObject({ actor: { kind: "user", id: id("dev@example.com") } });
    expect(await audit(`?actor=${id("ana@example.com")}&action=key`)).toEqual([]);
  });

  test("the Audit log page lists the acts, newest first, and filters by action", async () => {
    await signInUser("ana@example.com", PW);
    await signedIn();
    await clickLink(page, "Audit log");
    await waitForText(page, "user.totp");
    const first = await page.$eval("#audit-list tbody tr td:nth-child(3)", (e: any) => e.textContent);
    expect(first).toBe("user.signin");
    await fill(page, "Action", "user.invite");
    await clickButton(page, "Filter");
    await page.waitForFunction(() => document.querySelectorAll("#audit-list tbody tr").length === 1);
    expect(await page.$eval("#audit-list tbody tr", (e: any) => e.textContent)).toContain("dev@example.com");
    await screenshot(page, "audit");
    await signOut();
  });

  test("no page error happened (the refused sign-in and key are the only failed requests)", () => {
    expect(b.errors.filter((e) => !/status of 40[13]/.test(e))).toEqual([]);
  });
});

// The team end to end (contract §14), against a real `postern serve` process, in a real headless
// Chromium and through a real OpenID Connect provider (npm's oidc-provider, started here): users
// made with `postern user add`, a password sign-in, TOTP enrolment, a sign-in with a code after a
// wrong one is refused, an invitation mailed through postern to a real sink, an analyst refused a key, a user of one tenant seeing only its domains,
// single sign-on; every act read back from GET /audit and `postern audit --json`. The TOTP codes
// are computed here (RFC 6238, node:crypto), not with postern's own code.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHmac } from "node:crypto";
import type { Page } from "puppeteer-core";
import { auditApi, auditCli, delivered, startWorld, type World } from "./tenants-world.ts";
import { startOidcProvider, type OidcProviderHandle } from "../helpers/oidc-provider.ts";
import { freePort } from "../helpers/free-port.ts";
import { choose, clickButton, clickLink, fill, launch, waitForText, type Driven } from "../ui/browser.ts";

declare const document: any;
setDefaultTimeout(60_000);
const PW = "a long enough password";
let w: World;
let idp: OidcProviderHandle;
let b: Driven;
let page: Page;
let secret = "";

/** RFC 6238 TOTP (HMAC-SHA-1, 6 digits, 30 s) of a base32 secret at `at` ms. */
function totpCode(base32: string, at: number): string {
  const bits = [...base32.replace(/=+$/, "").toUpperCase()].map((c) => "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".indexOf(c).toString(2).padStart(5, "0")).join("");
  const key = Buffer.from(bits.match(/.{8}/g)!.map((byte) => parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const mac = createHmac("sha1", key).update(counter).digest();
  const offset = mac[19]! & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

beforeAll(async () => {
  const port = await freePort();
  idp = await startOidcProvider(`http://127.0.0.1:${port}/ui/oidc/callback`);
  idp.accounts.set("sso-sub", { email: "sso@team.test", email_verified: true });
  w = await startWorld(`[console.oidc]\nissuer = "${idp.issuer}"\nclient_id = "${idp.clientId}"\nclient_secret = "${idp.clientSecret}"\n`, port);
  await w.cli(["tenant", "add", "acme"]);
  await w.cli(["domain", "add", "acme.test", "--tenant", "acme"]);
  await w.cli(["domain", "add", "main.test"]);
  await w.cli(["domain", "verify", "main.test", "--force"]); // invitations are sent from postmaster@ the first active domain
  await w.cli(["user", "add", "owner@team.test", "--role", "owner", "--password-stdin"], `${PW}\n`);
  await w.cli(["user", "add", "ana@team.test", "--role", "analyst", "--password-stdin"], `${PW}\n`);
  await w.cli(["user", "add", "acme-dev@team.test", "--role", "developer", "--tenant", "1", "--password-stdin"], `${PW}\n`);
  await w.cli(["user", "add", "sso@team.test", "--role", "developer"]);
  b = await launch();
  page = b.page;
});
afterAll(async () => { await b?.close(); await w?.close(); await idp?.close(); });

async function signIn(email: string) {
  await page.goto(`${w.base}/ui`);
  await fill(page, "Email", email);
  await fill(page, "Password", PW);
  await clickButton(page, "Sign in with password");
}
const signedIn = () => page.waitForFunction(() => !document.getElementById("signout")!.hidden);
async function signOut() {
  await clickButton(page, "Sign out");
  await page.waitForFunction(() => !document.getElementById("signin")!.hidden);
}
const users = async () => (JSON.parse(await w.cli(["user", "list", "--json"])) as { users: { id: string; email: string; role: string; totp: boolean; oidc: boolean }[] }).users;

describe("the team in Chromium", () => {
  test("a password sign-in, then TOTP enrolment: the otpauth:// URI as text and ten recovery codes", async () => {
    await signIn("owner@team.test");
    await signedIn();
    await clickLink(page, "Security");
    // The page draws after its GET /me: on a loaded CI machine that once took longer than a click's 10 s wait.
    await waitForText(page, "Two-factor sign-in (TOTP)", 30_000);
    await clickButton(page, "Set up TOTP");
    const uri = await page.locator("#totp-uri").map((e: any) => e.textContent ?? "").wait();
    secret = new URL(uri).searchParams.get("secret")!;
    expect(uri).toStartWith("otpauth://totp/");
    await fill(page, "Code from the app", totpCode(secret, Date.now()));
    await clickButton(page, "Confirm");
    await waitForText(page, "Recovery codes");
    expect((await page.$eval(".secret-value", (e: any) => e.textContent)).trim().split(/\s+/)).toHaveLength(10);
    expect((await users()).find((u) => u.email === "owner@team.test")?.totp).toBe(true);
    await signOut();
  });

  test("signing in again asks for the code: a wrong one is refused, the right one signs in", async () => {
    await signIn("owner@team.test");
    await waitForText(page, "enter the code of your authenticator app");
    await fill(page, "Code", totpCode(secret, Date.now() + 600_000));
    await clickButton(page, "Sign in with password");
    await waitForText(page, "wrong code");
    expect(await page.$eval("#signout", (e: any) => e.hidden)).toBe(true);
    await fill(page, "Password", PW);
    await fill(page, "Code", totpCode(secret, Date.now() + 30_000)); // the next step: the enrolment used this one
    await clickButton(page, "Sign in with password");
    await signedIn();
    expect(await page.$eval("#who", (e: any) => e.textContent)).toBe("owner");
  });

  test("the owner invites by email: the link arrives at the sink, sent through postern, and sets a password", async () => {
    await clickLink(page, "Team");
    await fill(page, "Email", "new@dest.test");
    await choose(page, "Role", "developer");
    await clickButton(page, "Invite");
    await page.locator(".secret-value").wait();
    await signOut();
    const mail = (await delivered(w, "new@dest.test"))[0]!.raw.toString().replace(/=\r?\n/g, "");
    const link = /https?:\/\/[^\s"<>]+\/ui\/#\/accept\/[0-9a-z]+/.exec(mail)![0];
    await page.goto(link);
    await fill(page, "New password", PW);
    await clickButton(page, "Set password");
    await waitForText(page, "Your password is set");
    await signIn("new@dest.test");
    await signedIn();
    expect(await page.$eval("#who", (e: any) => e.textContent)).toBe("developer");
    await signOut();
  });

  test("an analyst cannot make a key", async () => {
    await signIn("ana@team.test");
    await signedIn();
    await clickLink(page, "API keys");
    await choose(page, "Kind", "account");
    await fill(page, "Label", "analyst-made");
    await clickButton(page, "Create key");
    await waitForText(page, "lacks the permission keys.manage");
    const keys = (await (await fetch(`${w.base}/keys`, { headers: { "ov-token": w.primaryKey } })).json()) as { items: { label: string }[] };
    expect(keys.items.some((k) => k.label === "analyst-made")).toBe(false);
    await signOut();
  });

  test("a user of one tenant sees that tenant's domains only", async () => {
    await signIn("acme-dev@team.test");
    await signedIn();
    await clickLink(page, "Domains");
    await waitForText(page, "acme.test");
    expect(await page.evaluate(() => document.body.innerText.includes("main.test"))).toBe(false);
    await signOut();
  });

  test("single sign-on through the local OpenID Connect provider links the user and signs in", async () => {
    await page.goto(`${w.base}/ui`);
    await clickLink(page, "Sign in with single sign-on");
    await page.waitForSelector("input[name=login]");
    expect(page.url().startsWith(idp.issuer)).toBe(true);
    await page.type("input[name=login]", "sso-sub");
    await page.type("input[name=password]", "anything");
    await Promise.all([page.waitForNavigation({ waitUntil: "networkidle0" }), page.click("button[type=submit]")]);
    await signedIn();
    expect(page.url().startsWith(`${w.base}/ui`)).toBe(true);
    expect(await page.$eval("#who", (e: any) => e.textContent)).toBe("developer");
    expect((await users()).find((u) => u.email === "sso@team.test")?.oidc).toBe(true);
  });
});

describe("the audit log", () => {
  test("has every act, the same through GET /audit and `postern audit --json`", async () => {
    const items = await auditApi(w, w.primaryKey);
    expect((await auditCli(w)).map((e) => [e.id, e.action, e.target])).toEqual(items.map((e) => [e.id, e.action, e.target]));
    const id = new Map((await users()).map((u) => [u.email, u.id]));
    const acts = (action: string) => items.filter((e) => e.action === action).map((e) => `${e.actor.kind}:${e.actor.kind === "user" ? e.actor.id : ""} ${e.target}`).sort();
    // `postern user add` is the operator's (cli); the invitation made its user as the owner.
    expect(acts("user.add")).toEqual(["cli: acme-dev@team.test", "cli: ana@team.test", "cli: owner@team.test", "cli: sso@team.test",
      `user:${id.get("owner@team.test")} new@dest.test`].sort());
    expect(acts("user.invite")).toEqual([`user:${id.get("owner@team.test")} new@dest.test`]);
    expect(acts("user.accept")).toEqual([`user:${id.get("new@dest.test")} new@dest.test`]);
    expect(acts("user.totp")).toEqual([`user:${id.get("owner@team.test")} owner@team.test`]);
    expect(acts("user.signin")).toEqual([`user:${id.get("acme-dev@team.test")} acme-dev@team.test (password)`, `user:${id.get("ana@team.test")} ana@team.test (password)`,
      `user:${id.get("owner@team.test")} owner@team.test (password)`, `user:${id.get("owner@team.test")} owner@team.test (password)`,
      `user:${id.get("sso@team.test")} sso@team.test (oidc)`, `user:${id.get("new@dest.test")} new@dest.test (password)`].sort());
    expect(acts("user.link")).toEqual([`user:${id.get("sso@team.test")} sso@team.test`]);
    // The analyst's refused key left nothing; the CLI's tenant and domains are the operator's.
    expect(items.filter((e) => e.actor.id === id.get("ana@team.test") && e.action !== "user.signin")).toEqual([]);
    expect(items.filter((e) => e.action === "tenant.add" || e.action === "domain.add").map((e) => `${e.actor.kind} ${e.tenant} ${e.target}`).sort())
      .toEqual(["cli 0 main.test", "cli 1 acme", "cli 1 acme.test"]);
    // The audit filters agree on both readers.
    expect((await auditApi(w, w.primaryKey, "action=user.signin")).length).toBe(6);
    expect((await auditCli(w, "--actor", id.get("owner@team.test")!)).map((e) => e.action).sort()).toEqual(["user.add", "user.invite", "user.signin", "user.signin", "user.totp"]);
  });

  // The audit log's tenant scope (core/permissions.ts auditTenant): a tenant's user reads its tenant's entries only.
  test("a user of one tenant reads only its tenant's audit entries", async () => {
    const res = await fetch(`${w.base}/ui/api/session`, { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "acme-dev@team.test", password: PW }) });
    const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0]!;
    const read = await fetch(`${w.base}/ui/api/audit?limit=1000`, { headers: { cookie } });
    if (read.status === 403) return; // not allowed to read it at all: nothing leaks either
    expect(((await read.json()) as { items: { tenant: number }[] }).items.filter((e) => e.tenant !== 1)).toEqual([]);
  });

  // Refused requests (the wrong code, the analyst's key) answer 401/403; the provider's page asks for web fonts (offline here).
  test("no uncaught page error", () => {
    expect(b.errors.filter((e) => !/status of 40[13]/.test(e) && !e.includes("Failed to load resource"))).toEqual([]);
  });
});

// Tenants in a real browser (headless Chromium): an owner of every tenant opens the Tenants page,
// adds a tenant, suspends and reactivates it; the header's tenant switcher makes the console act
// for one tenant (its domains only; a key made there is the tenant's; a suspended tenant shows
// read-only) and back for every tenant. A user of one tenant gets neither the switcher nor the page.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "puppeteer-core";
import { startConsole, type ConsoleEnv } from "../api/console/setup.ts";
import { clickButton, clickInRow, clickLink, fill, launch, waitForNoText, waitForText, type Driven } from "./browser.ts";

declare const document: any;
setDefaultTimeout(120_000);

let env: ConsoleEnv;
let b: Driven;
let page: Page;
const PW = "correct horse battery";

beforeAll(async () => {
  env = await startConsole();
  const acme = await env.t.app.tenants.add("acme");
  await env.t.app.domains.add("acme.test", { tenant: acme.id });
  await env.t.app.team.users.add(null, { email: "boss@example.com", role: "owner", password: PW });
  await env.t.app.team.users.add(null, { email: "ann@example.com", role: "admin", tenant: acme.id, password: PW });
  b = await launch();
  page = b.page;
});
afterAll(async () => { await b?.close(); await env?.close(); });

async function signInUser(email: string) {
  const cdp = await page.createCDPSession();
  await cdp.send("Network.clearBrowserCookies");
  await page.goto(`${env.base}/ui`);
  await fill(page, "Email", email);
  await fill(page, "Password", PW);
  await clickButton(page, "Sign in with password");
  await page.waitForFunction(() => !document.getElementById("signout")!.hidden);
}
const visible = (id: string) => page.$eval(`#${id}`, (e: any) => !e.hidden);
const session = () => page.evaluate(async () => (await fetch("/ui/api/session")).json());

describe("tenants in Chromium", () => {
  test("an owner of every tenant adds, suspends and reactivates a tenant on the Tenants page", async () => {
    await signInUser("boss@example.com");
    await clickLink(page, "Tenants");
    await waitForText(page, "acme");
    await fill(page, "Name", "beta");
    await clickButton(page, "Add");
    await waitForText(page, "Added tenant beta (id 2)");
    await clickInRow(page, "beta", "Suspend");
    await page.waitForFunction(() => [...document.querySelectorAll("tr")].some((tr: any) => tr.textContent.includes("beta") && tr.textContent.includes("suspended")));
    expect((await env.t.app.tenants.require("beta")).status).toBe("suspended");
    await clickInRow(page, "beta", "Reactivate");
    await page.waitForFunction(() => [...document.querySelectorAll("tr")].some((tr: any) => tr.textContent.includes("beta") && tr.textContent.includes("active")
      && !tr.textContent.includes("suspended")));
    expect((await env.t.app.tenants.require("beta")).status).toBe("active");
  });

  test("the switcher acts for one tenant: its domains only, keys made are its own; back to every tenant", async () => {
    await clickLink(page, "Domains");
    await waitForText(page, "example.com");
    expect(await visible("tenant-switch")).toBe(true);
    await page.select("#tenant-switch", "1");
    await waitForNoText(page, "example.com");
    await waitForText(page, "acme.test");
    expect(await session()).toMatchObject({ tenant: 1, switcher: true });
    await clickLink(page, "API keys");
    await fill(page, "Label", "made in acme");
    await clickButton(page, "Create key");
    await waitForText(page, "New domain key");
    expect((await env.t.app.access.listKeys(undefined, 1)).map((k) => k.label)).toEqual(["made in acme"]);
    await env.t.app.tenants.suspend("acme");
    await page.select("#tenant-switch", "");
    await page.select("#tenant-switch", "1");
    await page.waitForFunction(() => document.getElementById("who").textContent.includes("tenant 1 suspended: read-only"));
    await env.t.app.tenants.setStatus("acme", "active");
    await page.select("#tenant-switch", "");
    await clickLink(page, "Domains");
    await waitForText(page, "example.com");
    expect(await session()).toMatchObject({ tenant: null });
  });

  test("a user of one tenant: no switcher, no Tenants page", async () => {
    await signInUser("ann@example.com");
    await waitForText(page, "acme.test");
    expect(await visible("tenant-switch")).toBe(false);
    expect(await visible("nav-tenants")).toBe(false);
    expect(await page.evaluate(async () => (await fetch("/ui/api/tenants")).status)).toBe(403);
  });

  test("no uncaught page error", () => {
    expect(b.errors.filter((e) => !e.includes("Failed to load resource"))).toEqual([]);
  });
});

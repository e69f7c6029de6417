// The console's Health page in headless Chromium, over a real dnsmasq: the failing checks first
// with their fix, the blocklist watch with the listed address, and "Run the checks now".
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "puppeteer-core";
import { createSystemResolver } from "../../src/dns.ts";
import { startConsole, type ConsoleEnv } from "../api/console/setup.ts";
import { dkimKeysFor, startWorld } from "../doctor/fixture.ts";
import { freePort } from "../helpers/free-port.ts";
import { clickButton, clickLink, launch, screenshot, waitForText, type Driven } from "./browser.ts";

declare const document: any;
setDefaultTimeout(120_000);
let world: Awaited<ReturnType<typeof startWorld>>;
let env: ConsoleEnv;
let b: Driven;
let page: Page;

beforeAll(async () => {
  world = await startWorld(await dkimKeysFor("s1"));
  env = await startConsole({ resolver: createSystemResolver([world.dns.server], { timeoutMs: 1000 }),
    toml: `[mta.egress.ip6]\nsource_address = "127.0.0.6"\nehlo = "mx6.good.test"\n[mta.pools.default]\nsources = ["ip6"]\n`
      + `[doctor]\ninterval = "0"\nport25_probe = "127.0.0.1:${await freePort()}"\n[blocklists]\nip_zones = ["bl.test"]\ndomain_zones = []\n` });
  b = await launch();
  page = b.page;
});
afterAll(async () => { await b?.close(); await env?.close(); await world?.stop(); });

test("in Chromium: errors first with their fix, the listed address, and a re-run", async () => {
  await page.goto(`${env.base}/ui`);
  await page.type("#signin-key", env.t.accountKey);
  await page.click("#signin-form button[type=submit]");
  await page.waitForFunction(() => !document.getElementById("signout")!.hidden);
  await clickLink(page, "Health");
  await waitForText(page, "Checks (");
  const rows = await page.$$eval("section.card tbody tr", (trs) => trs.map((tr) => tr.textContent ?? ""));
  expect(rows[0]).toMatch(/^error/);
  expect(rows.some((t) => t.includes("ptr") && t.includes("127.0.0.6") && t.includes("reverse DNS"))).toBe(true);
  expect(rows.some((t) => t.startsWith("listed") && t.includes("127.0.0.6") && t.includes("bl.test"))).toBe(true);
  await clickButton(page, "Run the checks now");
  await waitForText(page, "Checks (");
  await screenshot(page, "health");
  expect(b.errors).toEqual([]);
});

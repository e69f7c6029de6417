// The console's Reports page in headless Chromium: receivers' DMARC reports (Gmail's and Yahoo's
// fixtures, as the inbound listener stores them) give the sources sending as the domain with this
// machine's own address marked, a pass-rate chart, and the TLS failures by receiving MX; the
// console API answers the same, and another domain's key sees none of it.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "puppeteer-core";
import { startConsole, type ConsoleEnv } from "../api/console/setup.ts";
import { parseDmarcXml } from "../../src/inbound/reports/dmarc.ts";
import { parseTlsReportJson } from "../../src/inbound/reports/tlsrpt.ts";
import { clickLink, launch, screenshot, waitForText, type Driven } from "./browser.ts";

declare const document: any;
setDefaultTimeout(120_000);

const F = join(import.meta.dir, "../fixtures/receiver-reports");
const xml = (name: string) => readFileSync(join(F, name), "utf8").replaceAll("reports.test", "example.com");
let env: ConsoleEnv;
let b: Driven;
let page: Page;

beforeAll(async () => {
  env = await startConsole();
  // Reports about the last days, so the page's default 30-day window shows them.
  const day = 86_400;
  const end = Math.floor(Date.now() / 1000);
  const dated = (text: string, begin: number) => text.replace(/<begin>\d+<\/begin>/, `<begin>${begin}</begin>`).replace(/<end>\d+<\/end>/, `<end>${begin + day - 1}</end>`);
  for (const [name, begin] of [["google.xml", end - 2 * day], ["yahoo.xml", end - day]] as const) {
    expect(await env.t.app.receiverReports.ingest(parseDmarcXml(dated(xml(name), begin)))).toBe("stored");
  }
  expect(await env.t.app.receiverReports.ingest(parseTlsReportJson(xml("google-tlsrpt.json")))).toBe("stored");
  b = await launch();
  page = b.page;
});
afterAll(async () => { await b?.close(); await env?.close(); });

describe("console Reports page", () => {
  test("the console API sums the sources, marks this machine's address, and keeps other domains out", async () => {
    const own = await env.signIn(env.t.accountKey);
    const r = await (await own.call("GET", "/reports?domain=example.com")).json();
    expect(r.sources.map((s: any) => [s.sourceIp, s.messages, s.own])).toEqual([["127.0.0.1", 48, true], ["198.51.100.23", 3, false]]);
    expect(r.passByDay.map((d: any) => [d.messages, d.passed])).toEqual([[44, 41], [7, 7]]);
    expect(r.sessions).toEqual({ successful: 120, failed: 4 });
    const other = await env.signIn(env.otherKey);
    expect((await other.call("GET", "/reports?domain=example.com")).status).toBe(404);
    expect((await own.call("GET", "/reports")).status).toBe(400);
  });

  test("in Chromium: sources with their pass rate, ours marked, a bar per day, TLS failures", async () => {
    await page.goto(`${env.base}/ui`);
    await page.type("input[type=password], input[name=key], #signin-key", env.t.accountKey);
    await page.click("#signin-form button[type=submit]");
    await page.waitForFunction(() => !document.getElementById("signout")!.hidden);
    await clickLink(page, "Reports");
    await waitForText(page, "Sources sending as example.com");
    await waitForText(page, "198.51.100.23");
    const rows = await page.$$eval("section.card tbody tr", (trs) => trs.map((tr) => tr.textContent ?? ""));
    expect(rows.some((t) => t.includes("127.0.0.1") && t.includes("postern") && t.includes("48") && t.includes("100%"))).toBe(true);
    expect(rows.some((t) => t.includes("198.51.100.23") && t.includes("other") && t.includes("0%"))).toBe(true);
    expect(rows.some((t) => t.includes("mail.example.com") && t.includes("certificate-expired"))).toBe(true);
    expect(await page.$$eval("svg.chart rect[data-day]", (r) => r.length)).toBe(2);
    await screenshot(page, "reports");
    expect(b.errors).toEqual([]);
  });
});

// The web console in a real browser (headless Chromium through puppeteer-core): sign-in without the
// key in browser storage and with an HttpOnly SameSite=Strict cookie, domains with live DNS status
// and Verify, a key created then revoked (401 on the API), an SMTP credential added and deleted, a
// suppression added and removed, messages found by recipient with their events and remote replies,
// the stats chart drawn, webhooks and queue pages working, sign-out, and a domain key's scope.
// Any uncaught page error or console error fails the run. POSTERN_SCREENSHOTS=1 refreshes docs/console/.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Page } from "puppeteer-core";
import { startConsole, type ConsoleEnv } from "../api/console/setup.ts";
import { startReceiver } from "../helpers/receiver.ts";
import { choose, clickButton, clickInRow, clickLink, fill, launch, screenshot, waitForNoText, waitForText, type Driven } from "./browser.ts";

// Page-side callbacks run in Chromium; this file is typed without the DOM library.
declare const document: any;

setDefaultTimeout(120_000);

let env: ConsoleEnv;
let b: Driven;
let page: Page;
const receiver = startReceiver(200);

async function send(to: string) {
  const body = new FormData();
  const fields: [string, string][] = [["from", "app@example.com"], ["to", to], ["subject", `hello ${to}`], ["text", "hi"], ["o:tag", "welcome"]];
  for (const [k, v] of fields) body.append(k, v);
  const res = await fetch(`${env.base}/example.com/messages`, { method: "POST", body, headers: { "ov-token": env.t.accountKey } });
  expect(res.status).toBe(200);
}

async function waitForEvent(recipient: string, type: string) {
  for (let i = 0; i < 300; i++) {
    const events = await env.t.app.activity.events("example.com", { recipient, limit: 50 });
    if (events.some((e) => e.type === type)) return;
    await Bun.sleep(50);
  }
  throw new Error(`no ${type} event for ${recipient}`);
}

beforeAll(async () => {
  env = await startConsole({
    sink: { script: (rcpt, attempt) => {
      if (rcpt.startsWith("bounce@")) return { code: 550, message: "5.1.1 mailbox unknown" };
      if (rcpt.startsWith("slow@") && attempt === 1) return { code: 451, message: "4.7.1 greylisted, come back later" };
      if (rcpt.endsWith("@stuck.test")) return { code: 451, message: "4.3.0 try again later" };
      return null;
    } },
    dns: {
      "new.example.net": { txt: [["v=spf1 a:mta.test ~all"]] },
      "_dmarc.new.example.net": { txt: [["v=spf1 not a dmarc record"]] },
    },
  });
  for (const to of ["delivered@dest.test", "bounce@dest.test", "slow@dest.test", "one@stuck.test"]) await send(to);
  await Promise.all([waitForEvent("delivered@dest.test", "delivered"), waitForEvent("bounce@dest.test", "failed"),
    waitForEvent("slow@dest.test", "delivered"), waitForEvent("one@stuck.test", "deferred")]);
  b = await launch();
  page = b.page;
});

afterAll(async () => {
  await b?.close();
  await env?.close();
  receiver.stop();
});

async function signIn(key: string) {
  await page.goto(`${env.base}/ui`);
  await fill(page, "API key", key);
  await clickButton(page, "Sign in");
  await page.waitForFunction(() => !document.getElementById("signout")!.hidden);
}

describe("console in Chromium", () => {
  test("sign-in keeps the key out of browser storage and sets an HttpOnly, SameSite=Strict cookie", async () => {
    await page.goto(`${env.base}/ui`);
    await screenshot(page, "sign-in");
    await signIn(env.t.accountKey);
    await waitForText(page, "All domains");
    const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    expect(storage).toBe("{}{}");
    expect(await page.evaluate(() => document.cookie)).toBe("");
    const cookie = (await page.cookies()).find((c) => c.name === "postern_session")!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict" });
    expect(await page.content()).not.toContain(env.t.accountKey);
  });

  test("domains: add one, see each DNS record's live status, Verify", async () => {
    await clickLink(page, "Domains");
    await waitForText(page, "example.com");
    await fill(page, "Domain name", "new.example.net");
    await clickButton(page, "Add domain");
    await waitForText(page, "DNS records");
    const statuses = await page.$$eval("tbody tr", (rows) => rows.map((r) => r.textContent ?? ""));
    expect(statuses.find((s) => s.startsWith("TXTnew.example.net"))).toContain("ok");
    expect(statuses.find((s) => s.includes("_dmarc.new.example.net"))).toContain("wrong");
    expect(statuses.find((s) => s.includes("_domainkey.new.example.net"))).toContain("missing");
    await clickButton(page, "Verify");
    await waitForText(page, "Not every required record is ok yet");
    await screenshot(page, "domain");
    await clickLink(page, "Domains");
    await waitForText(page, "new.example.net");
    await screenshot(page, "domains");
  });

  test("API keys: a created key works on the API until it is revoked", async () => {
    await clickLink(page, "API keys");
    await choose(page, "Kind", "domain");
    await choose(page, "Domain", "example.com");
    await fill(page, "Label", "browser-made");
    await clickButton(page, "Create key");
    const secret = await page.locator(".secret-value").map((e) => e.textContent ?? "").wait();
    expect(secret).toMatch(/^sk\./);
    const api = () => fetch(`${env.base}/domains`, { headers: { "ov-token": secret } });
    expect((await api()).status).toBe(200);
    await screenshot(page, "api-keys");
    await clickInRow(page, "browser-made", "Revoke");
    await waitForNoText(page, "browser-made");
    expect((await api()).status).toBe(401);
  });

  test("SMTP credentials: add one (password shown once), it authenticates, Delete removes it", async () => {
    await clickLink(page, "SMTP credentials");
    await fill(page, "Login", "billing");
    await clickButton(page, "Add credential");
    const password = await page.locator(".secret-value").map((e) => e.textContent ?? "").wait();
    expect(await env.t.app.access.authenticateSmtp("billing@example.com", password)).not.toBeNull();
    await screenshot(page, "smtp-credentials");
    await clickInRow(page, "billing@example.com", "Delete");
    await waitForText(page, "No credentials for this domain.");
    expect(await env.t.app.access.authenticateSmtp("billing@example.com", password)).toBeNull();
  });

  test("suppressions: Add puts an address on a list, Remove takes it off", async () => {
    await clickLink(page, "Suppressions");
    await fill(page, "Address", "blocked@dest.test");
    await choose(page, "Type", "unsubscribes");
    await clickButton(page, "Add");
    await waitForText(page, "blocked@dest.test");
    expect(await env.t.app.suppressions.get("example.com", "unsubscribes", "blocked@dest.test")).not.toBeNull();
    await screenshot(page, "suppressions");
    await clickInRow(page, "blocked@dest.test", "Remove");
    await page.waitForFunction(() => ![...document.querySelectorAll("tr")].some((tr) => tr.textContent!.includes("blocked@dest.test")));
    expect(await env.t.app.suppressions.get("example.com", "unsubscribes", "blocked@dest.test")).toBeNull();
  });

  test("messages: found by recipient, with events in order and the remote replies", async () => {
    await clickLink(page, "Messages");
    await fill(page, "Search", "bounce@dest.test");
    await clickButton(page, "Search");
    await waitForText(page, "failed");
    await page.locator("tbody a").click();
    await waitForText(page, "550");
    expect(await page.$eval("main", (m) => (m as any).innerText)).toMatch(/5\.1\.1 mailbox unknown[\s\S]*hard \(class 10\)/);
    await clickLink(page, "← Messages");
    await fill(page, "Search", "slow@dest.test");
    await clickButton(page, "Search");
    await waitForText(page, "delivered");
    await screenshot(page, "messages");
    await page.locator("tbody a").click();
    await waitForText(page, "greylisted");
    // The address each attempt went out from (the machine's default here) and its pool.
    await waitForText(page, "Sent from 127.0.0.1 (pool default)");
    // Sections: Message, Recipients, Events, Webhook posts.
    const events = await page.$$eval("section:nth-of-type(3) tbody tr td:nth-child(2)", (tds) => tds.map((td) => td.textContent));
    expect(events).toEqual(["accepted", "deferred", "delivered"]);
    await waitForText(page, "Webhook posts");
    await screenshot(page, "message");
    // A tag finds every message that carries it.
    await clickLink(page, "← Messages");
    await fill(page, "Search", "welcome");
    await clickButton(page, "Search");
    await waitForText(page, "delivered@dest.test");
  });

  test("stats: the chart is drawn from the counts", async () => {
    await clickLink(page, "Stats");
    await page.locator('svg.chart polyline[data-series="accepted"]').wait();
    const ys = await page.$eval('svg.chart polyline[data-series="accepted"]', (p) => p.getAttribute("points")!.split(" ").map((xy: string) => Number(xy.split(",")[1])));
    expect(new Set(ys).size).toBeGreaterThan(1);
    await waitForText(page, "accepted");
    await screenshot(page, "stats");
  });

  test("webhooks: add a target, Test posts a sample and shows the answer, Remove", async () => {
    await clickLink(page, "Webhooks");
    await choose(page, "Format", "sendgrid");
    await fill(page, "URL", receiver.url);
    await clickButton(page, "Add webhook");
    await waitForText(page, receiver.url);
    const before = receiver.received.length;
    await clickInRow(page, receiver.url, "Test");
    await waitForText(page, "HTTP 200");
    // Real events (the stuck message's deferrals) reach the same target too: pick the sample.
    const sample = receiver.received.slice(before).find((r) => (r.json as { event?: string }[] | undefined)?.[0]?.event === "delivered")!;
    expect(sample).toBeDefined();
    expect(sample.headers.get("x-twilio-email-event-webhook-signature")).toBeTruthy();
    expect(sample.json).toMatchObject([{ event: "delivered" }]);
    await screenshot(page, "webhooks");
    await clickInRow(page, receiver.url, "Remove");
    await waitForText(page, "No webhooks for this domain.");
  });

  test("queue: open alerts, pending by destination, Retry and Purge", async () => {
    await env.t.app.alerts.observe({ rule: "blocklist", subject: "192.0.2.44", firing: true });
    await clickLink(page, "Queue");
    await waitForText(page, "Open alerts");
    await waitForText(page, "192.0.2.44");
    await waitForText(page, "stuck.test");
    await waitForText(page, "Destinations");
    await screenshot(page, "queue");
    await clickInRow(page, "stuck.test", "Retry");
    await clickInRow(page, "stuck.test", "Purge");
    await waitForText(page, "The queue is empty.");
    await waitForEvent("one@stuck.test", "failed");
  });

  test("a phone-width screen shows the same pages", async () => {
    await page.setViewport({ width: 390, height: 844, isMobile: true });
    await clickLink(page, "Messages");
    await waitForText(page, "Search");
    await screenshot(page, "phone-messages");
    await page.setViewport({ width: 1280, height: 900 });
  });

  test("sign out ends the session on the server", async () => {
    const cookie = (await page.cookies()).find((c) => c.name === "postern_session")!;
    await clickButton(page, "Sign out");
    await page.waitForFunction(() => !document.getElementById("signin")!.hidden);
    const res = await fetch(`${env.base}/ui/api/domains`, { headers: { cookie: `postern_session=${cookie.value}` } });
    expect(res.status).toBe(401);
  });

  test("a domain key sees only its own domain", async () => {
    await signIn(env.otherKey);
    await waitForText(page, "other.test");
    const names = await page.$$eval("tbody tr td:first-child", (tds) => tds.map((td) => td.textContent));
    expect(names).toEqual(["other.test"]);
    await clickButton(page, "Sign out");
  });

  test("no page error or console error happened", () => {
    expect(b.errors).toEqual([]);
  });
});

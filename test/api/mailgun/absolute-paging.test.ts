// Ghost's newsletter analytics, the real @tryghost/email-analytics-provider-mailgun (mailgun-js
// underneath) pointed at a listening postern: it strips only api.mailgun.net from `paging.next`,
// so from its second page on postern receives `/v3http://HOST:PORT/v3/<domain>/events/<page>` and
// must answer it as that page. Every delivered event is read, over several 300-event pages.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
// @ts-expect-error: the package ships no types
import EmailAnalyticsProviderMailgun from "@tryghost/email-analytics-provider-mailgun";
import { eventually, startHarness, type MailgunHarness } from "./helpers.ts";

setDefaultTimeout(120_000);
const RECIPIENTS = 700; // Ghost reads 300 events a page: three pages, the last one short.
let h: MailgunHarness;

beforeAll(async () => {
  h = await startHarness();
  const to = Array.from({ length: RECIPIENTS }, (_, i) => `member${i}@dest.test`);
  const vars = Object.fromEntries(to.map((a, i) => [a, { n: i }]));
  // Ghost's bulk sends: tagged bulk-email, the email id in a user variable; test mode records
  // the delivered events at once without SMTP.
  const res = await h.call("POST", "/v3/example.com/messages", { body: new URLSearchParams({ from: "news@example.com", to: to.join(","),
    subject: "Newsletter", text: "hello %recipient.n%", "o:tag": "bulk-email", "o:testmode": "yes", "v:email-id": "ghost-email-1",
    "recipient-variables": JSON.stringify(vars) }) });
  expect(res.status).toBe(200);
  await eventually(async () => (await h.t.app.activity.events("example.com", { types: ["delivered"], limit: 1000 })).length === RECIPIENTS);
});
afterAll(async () => { await h.close(); });

function provider() {
  const bulkEmail = { mailgun: { apiKey: h.t.accountKey, domain: "example.com", baseUrl: `${h.base}/v3` } };
  return new EmailAnalyticsProviderMailgun({ config: { get: (k: string) => (k === "bulkEmail" ? bulkEmail : undefined) }, settings: { get: () => undefined } });
}

async function collect(run: (p: any, handler: (events: any[]) => object) => Promise<{ delivered: number }>) {
  const pages: number[] = [];
  const seen: any[] = [];
  const result = await run(provider(), (events) => {
    pages.push(events.length);
    seen.push(...events);
    return { delivered: events.filter((e) => e.type === "delivered").length };
  });
  return { result, pages, seen };
}

describe("Ghost's Mailgun analytics provider", () => {
  test("fetchAll reads every delivered event, page after page", async () => {
    const { result, pages, seen } = await collect((p, handler) => p.fetchAll(handler));
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(result.delivered).toBe(RECIPIENTS);
    expect(new Set(seen.map((e) => e.recipientEmail)).size).toBe(RECIPIENTS);
    expect(seen.every((e) => e.emailId === "ghost-email-1" && typeof e.providerId === "string")).toBe(true);
  });

  test("fetchLatest reads forward from a timestamp over every page", async () => {
    const { result, pages } = await collect((p, handler) => p.fetchLatest(Date.now() - 60_000, handler));
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(result.delivered).toBe(RECIPIENTS);
  });

  test("a /v3 + absolute URL naming another host is not served as a page (nothing is ever forwarded)", async () => {
    const res = await fetch(`${h.base}/v3http://elsewhere.test/v3/example.com/events`, { headers: { authorization: `Basic ${btoa(`api:${h.t.accountKey}`)}` } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});

// Stats that survive retention (#30): with 5 s windows, mail is sent through SparkPost and
// SendGrid (one domain: both surfaces count both), delivered (one after a deferral), blocked,
// hard-bounced, dropped (suppressed), opened twice and clicked; once the sweeper has deleted every event and message, SendGrid's /v3/stats, category stats and sums
// (@sendgrid/client) and SparkPost's deliverability metrics, grouped and as time series (the
// sparkpost client), give the same figures as while the events were there.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@sendgrid/client";
import { startSpEnv, type SpEnv } from "../api/sparkpost/setup.ts";
import { pointClient } from "../api/sendgrid/setup.ts";
import { pgSkipReason, sharedPostgres, type PgCluster } from "../helpers/postgres.ts";

setDefaultTimeout(120_000);
const DAY = 86_400_000;
const UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36";
const SP_METRICS = ["count_targeted", "count_injected", "count_rejected", "count_policy_rejection", "count_sent", "count_accepted", "count_delivered",
  "count_delivered_first", "count_delivered_subsequent", "count_bounce", "count_hard_bounce", "count_soft_bounce", "count_block_bounce", "count_admin_bounce", "count_inband_bounce",
  "count_delayed", "count_rendered", "count_unique_rendered", "count_nonprefetched_unique_rendered", "count_clicked", "count_unique_clicked",
  "count_unique_confirmed_opened", "total_msg_volume"].join(",");

let env: SpEnv;
let sg: Client;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const start = Date.now();
const from = new Date(start - 3 * 3_600_000).toISOString().slice(0, 16);

/** The tracking URL of `kind` ("o" open, "c" click) in the mail the sink holds for `rcpt`. */
async function trackingUrl(rcpt: string, kind: "o" | "c") {
  const html = (await env.received(rcpt)).raw.toString().replace(/=\r?\n/g, "").replace(/=3D/g, "=");
  return new RegExp(`(http://[^"'\\s]+/t/${kind}/[A-Za-z0-9_-]+)`).exec(html)![1]!;
}
const hit = (url: string) => env.t.app.http(new Request(url, { headers: { "user-agent": UA } }));
const eventCount = async () => (await env.t.app.store.zone("us").searchEvents({ domain: "example.com", limit: 1000 })).length;

/** Everything the test compares, read through the official clients. */
async function figures() {
  const sgGet = async (url: string) => (await sg.request({ method: "GET", url }))[1];
  const spGet = async (uri: string, qs: Record<string, string> = {}) =>
    (await env.domain.get({ uri: `metrics/deliverability${uri}`, qs: { from, metrics: SP_METRICS, ...qs } })).results;
  const range = `start_date=${day(start - DAY)}&end_date=${day(Date.now())}`;
  return {
    sgStats: await sgGet(`/v3/stats?${range}`),
    sgCategories: await sgGet(`/v3/categories/stats?${range}&categories=promo,spring-sale`),
    sgSums: await sgGet(`/v3/categories/stats/sums?${range}`),
    spTotal: await spGet(""),
    spDomains: await spGet("/domain"),
    spCampaigns: await spGet("/campaign"),
    spHours: await spGet("/time-series", { precision: "hour" }),
    spDays: await spGet("/time-series", { precision: "day" }),
  };
}

/** The figures of every day (or bucket) added up, for the known totals. */
function sum(rows: Record<string, number>[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of rows) for (const [k, v] of Object.entries(r)) if (typeof v === "number") out[k] = (out[k] ?? 0) + v;
  return out;
}

async function setUp(storageToml = "") {
  env = await startSpEnv({
    storageToml,
    toml: `[retention]\nevents = "5s"\nmessages = "5s"\n`,
    script: (rcpt, attempt) => (rcpt === "blocked@dest.test" ? { code: 554, message: "5.7.1 Message rejected as spam" }
      : rcpt === "hard@dest.test" ? { code: 550, message: "5.1.1 User unknown" }
      : rcpt === "slow@dest.test" && attempt === 1 ? { code: 451, message: "4.7.1 Try again later" } : null),
  });
  // Opens seconds after delivery look like a scanner's: the bot verdict would depend on timing.
  await env.t.app.domains.set("example.com", { botDetection: false });
  sg = new Client();
  pointClient(sg, env.t.domainKey, `${env.origin}/`);
  await env.t.app.suppressions.add("example.com", "bounces", [{ address: "gone@dest.test", reason: "550 5.1.1", code: "550" }]);
  await env.domain.transmissions.send({ campaign_id: "spring", options: { open_tracking: true, click_tracking: true },
    content: { from: "news@example.com", subject: "metrics", html: `<p>hello <a href="https://shop.test/sale">sale</a></p>` },
    recipients: [{ address: "ok@dest.test", tags: ["spring-sale"] }, { address: "ok@other.test" }, { address: "blocked@dest.test" },
      { address: "hard@dest.test" }, { address: "gone@dest.test" }, { address: "slow@dest.test" }] });
  await sg.request({ method: "POST", url: "/v3/mail/send", body: { personalizations: [{ to: [{ email: "promo@dest.test" }] }], from: { email: "news@example.com" },
    subject: "promo", categories: ["promo"], content: [{ type: "text/html", value: "<p>promo</p>" }], tracking_settings: { open_tracking: { enable: true } } } });
  // Two opens and a click by one recipient (one unique open, one unique click), an open by another.
  const open = await trackingUrl("ok@dest.test", "o");
  // Two opens at once (a prefetch and the reader): one of them is the unique open.
  await Promise.all([hit(open), hit(open)]);
  await hit(await trackingUrl("ok@dest.test", "c"));
  await hit(await trackingUrl("promo@dest.test", "o"));
}

/** The test itself, for one engine. */
async function sameFiguresAfterRetention() {
  // Wait for every outcome (the sweeper may already be rolling some up: the figures are the same either way).
  const sgSum = (f: Awaited<ReturnType<typeof figures>>) => sum((f.sgStats as { stats: { metrics: Record<string, number> }[] }[]).map((d) => d.stats[0]!.metrics));
  const settled = (f: Awaited<ReturnType<typeof figures>>) => {
    const g = sgSum(f);
    // Outcomes and interactions are recorded in the background (a tracking hit is answered first).
    return sum(f.spTotal).count_sent === 6 && (g.delivered ?? 0) + (g.blocks ?? 0) + (g.bounces ?? 0) === 6 && g.opens === 3 && g.clicks === 1;
  };
  let before = await figures();
  for (let i = 0; i < 200 && !settled(before); i++) { await Bun.sleep(100); before = await figures(); }
  const sgTotal = sgSum(before);
  expect(sgTotal).toMatchObject({ requests: 7, processed: 6, delivered: 4, blocks: 1, bounces: 1, bounce_drops: 1, opens: 3, unique_opens: 2,
    clicks: 1, unique_clicks: 1, deferred: 1 });
  expect(before.spTotal).toEqual([expect.objectContaining({ count_targeted: 7, count_injected: 6, count_policy_rejection: 1, count_sent: 6,
    count_delivered: 4, count_delivered_first: 3, count_delivered_subsequent: 1, count_delayed: 1, count_bounce: 2, count_hard_bounce: 1, count_block_bounce: 1, count_inband_bounce: 2,
    count_rendered: 3, count_unique_rendered: 2, count_nonprefetched_unique_rendered: 2, count_clicked: 1, count_unique_clicked: 1,
    count_unique_confirmed_opened: 2 })]);
  expect((before.spTotal as Record<string, number>[])[0]!.total_msg_volume).toBeGreaterThan(0);

  // Every event and message goes (5 s windows, a pass every second).
  for (let i = 0; i < 600 && (await eventCount()) > 0; i++) await Bun.sleep(100);
  expect(await eventCount()).toBe(0);
  expect(await env.t.app.store.zone("us").statRollups({ domain: "example.com", begin: start - DAY, end: Date.now() })).not.toEqual([]);
  const after = await figures();
  expect(after).toEqual(before);
  const promo = (after.sgCategories as { stats: { name: string; metrics: Record<string, number> }[] }[]).flatMap((d) => d.stats);
  expect(sum(promo.filter((s) => s.name === "promo").map((s) => s.metrics))).toMatchObject({ requests: 1, delivered: 1, opens: 1, unique_opens: 1 });
  expect(sum(promo.filter((s) => s.name === "spring-sale").map((s) => s.metrics))).toMatchObject({ requests: 1, delivered: 1, opens: 2, unique_opens: 1, clicks: 1 });
  expect((after.spCampaigns as Record<string, unknown>[]).map((r) => [r.campaign_id, r.count_delivered])).toEqual([["spring", 3]]);
  expect((after.spDomains as Record<string, unknown>[]).map((r) => [r.domain, r.count_targeted]).sort()).toEqual([["dest.test", 6], ["other.test", 1]]);
  expect(sum(after.spHours as Record<string, number>[]).count_delivered).toBe(4);
}

describe("stats after retention (SQLite)", () => {
  beforeAll(() => setUp());
  afterAll(async () => { await env?.close(); });
  test("SendGrid stats and SparkPost metrics keep their figures once the sweeper has deleted every event", sameFiguresAfterRetention);
});

describe.skipIf(pgSkipReason !== null)("stats after retention (PostgreSQL)", () => {
  let pg: PgCluster;
  beforeAll(async () => {
    pg = await sharedPostgres();
    await setUp(`engine = "postgres"\npostgres_url = "${await pg.createDatabase("rollups")}"`);
  });
  afterAll(async () => { await env?.close(); await pg?.stop(); });
  test("SendGrid stats and SparkPost metrics keep their figures once the sweeper has deleted every event", sameFiguresAfterRetention);
});

// SparkPost's deliverability metrics through the official sparkpost client: what was sent (a
// delivery, a block bounce, a policy rejection of a suppressed address, an open) counted under
// SparkPost's metric names, for the range, per recipient domain, sending domain, campaign,
// subaccount and time bucket; bad parameters are 400s naming the parameter.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { failure, startSpEnv, type SpEnv } from "./setup.ts";

setDefaultTimeout(60_000);
let env: SpEnv;
const from = new Date(Date.now() - 3_600_000).toISOString().slice(0, 16);
const METRICS = "count_targeted,count_injected,count_rejected,count_policy_rejection,count_sent,count_delivered,count_bounce,count_hard_bounce,"
  + "count_soft_bounce,count_block_bounce,count_unique_confirmed_opened,count_rendered,count_clicked";

beforeAll(async () => {
  env = await startSpEnv({ script: (rcpt) => (rcpt === "blocked@dest.test" ? { code: 554, message: "5.7.1 Message rejected as spam" } : null) });
  await env.t.app.suppressions.add("example.com", "bounces", [{ address: "gone@dest.test", reason: "550 5.1.1", code: "550" }]);
  await env.domain.transmissions.send({ campaign_id: "spring", options: { open_tracking: true },
    content: { from: "news@example.com", subject: "metrics", html: "<p>hello</p>" },
    recipients: [{ address: "ok@dest.test" }, { address: "ok@other.test" }, { address: "blocked@dest.test" }, { address: "gone@dest.test" }] });
  const deadline = Date.now() + 20_000;
  const done = async () => (await env.t.app.activity.events("example.com", { types: ["delivered", "failed"], limit: 10 })).length >= 4;
  while (!(await done()) && Date.now() < deadline) await Bun.sleep(50);
  const html = env.sink.messages.find((m) => m.to.includes("ok@dest.test"))!.raw.toString();
  const pixel = /(http:\/\/[^"'\s]+\/t\/o\/[A-Za-z0-9_-]+)/.exec(html.replace(/=\r?\n/g, "").replace(/=3D/g, "="))![1]!;
  await env.t.app.http(new Request(pixel, { headers: { "user-agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36" } }));
  while ((await env.t.app.activity.events("example.com", { types: ["opened"], limit: 1 })).length < 1 && Date.now() < deadline) await Bun.sleep(50);
});
afterAll(async () => { await env.close(); });

const get = async (uri: string, qs: Record<string, string> = {}) =>
  (await env.domain.get({ uri: `metrics/deliverability${uri}`, qs: { from, metrics: METRICS, ...qs } })).results as Record<string, unknown>[];

describe("deliverability metrics", () => {
  test("the range's totals under SparkPost's names", async () => {
    expect(await get("")).toEqual([{ count_targeted: 4, count_injected: 3, count_rejected: 1, count_policy_rejection: 1, count_sent: 3, count_delivered: 2,
      count_bounce: 1, count_hard_bounce: 0, count_soft_bounce: 0, count_block_bounce: 1, count_unique_confirmed_opened: 1, count_rendered: 1, count_clicked: 0 }]);
  });

  test("grouped by recipient domain, sending domain, campaign and subaccount; filtered", async () => {
    const domains = await get("/domain", { metrics: "count_delivered,count_bounce" });
    expect(domains).toEqual([{ domain: "dest.test", count_delivered: 1, count_bounce: 1 }, { domain: "other.test", count_delivered: 1, count_bounce: 0 }]);
    expect(await get("/sending-domain", { metrics: "count_injected" })).toEqual([{ sending_domain: "example.com", count_injected: 3 }]);
    expect(await get("/campaign", { metrics: "count_delivered" })).toEqual([{ campaign_id: "spring", count_delivered: 2 }]);
    expect(await get("/campaign", { metrics: "count_delivered", campaigns: "autumn" })).toEqual([]);
    expect(await get("/template", { metrics: "count_delivered" })).toEqual([]);
    expect(await get("/subaccount", { metrics: "count_delivered" })).toEqual([{ subaccount_id: 0, count_delivered: 2 }]);
    expect(await get("", { metrics: "count_delivered", domains: "other.test" })).toEqual([{ count_delivered: 1 }]);
  });

  test("a time series with zero buckets and its time zone's offsets", async () => {
    const day = await get("/time-series", { metrics: "count_delivered", precision: "day", from: `${new Date().toISOString().slice(0, 10)}T00:00` });
    expect(day).toEqual([{ count_delivered: 2, ts: expect.stringMatching(/T00:00:00\+00:00$/) }]);
    const hours = await get("/time-series", { metrics: "count_delivered", precision: "15min", from: new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 16) });
    expect(hours.length).toBeGreaterThanOrEqual(12);
    expect(hours.reduce((n, r) => n + (r.count_delivered as number), 0)).toBe(2);
    expect(hours.filter((r) => r.count_delivered === 0).length).toBeGreaterThan(0);
    const tokyo = await get("/time-series", { metrics: "count_delivered", precision: "day", timezone: "Asia/Tokyo",
      from: new Date(Date.now() + 9 * 3_600_000 - 3_600_000).toISOString().slice(0, 16) });
    expect(tokyo.at(-1)!.ts).toMatch(/T00:00:00\+09:00$/);
  });

  test("bad parameters are 400s naming the parameter", async () => {
    const cases: [Record<string, string>, string][] = [[{ from: "" }, "from"], [{ metrics: "" }, "metrics"], [{ metrics: "count_nonsense" }, "metrics"],
      [{ from: "yesterday" }, "from"], [{ precision: "2min" }, "precision"], [{ timezone: "Mars/Olympus" }, "timezone"]];
    for (const [qs, param] of cases) {
      const f = await failure(env.domain.get({ uri: "metrics/deliverability/time-series", qs: { from, metrics: "count_sent", ...qs } }));
      expect(f.statusCode).toBe(400);
      expect(f.errors[0]).toMatchObject({ message: "invalid data format/type", param });
    }
  });
});

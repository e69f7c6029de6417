// SendGrid's /v3/stats and category stats through @sendgrid/client, matching what was sent:
// requests, processed, delivered, drops of suppressed recipients, per category and zero-filled days.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eventually, startHarness, type SendgridHarness } from "./setup.ts";

setDefaultTimeout(60_000);
let h: SendgridHarness;
const today = new Date().toISOString().slice(0, 10);
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
beforeAll(async () => {
  h = await startHarness();
  await h.t.app.suppressions.add("example.com", "bounces", [{ address: "dead@dest.test", code: "550" }]);
  await h.mail.send({ to: "s1@dest.test", from: "alice@example.com", subject: "a", text: "t", categories: ["promo"] });
  await h.mail.send({ to: "s2@dest.test", from: "alice@example.com", subject: "b", text: "t", categories: ["promo", "spring"] });
  await h.mail.send({ to: "dead@dest.test", from: "alice@example.com", subject: "c", text: "t", categories: ["receipt"] });
  await eventually(() => h.t.app.activity.events("example.com", { types: ["delivered"], limit: 10 }), (l) => l.length === 2);
});
afterAll(async () => { await h.close(); });

const get = async (url: string) => (await h.client.request({ method: "GET", url }))[1] as { date: string; stats: { name?: string; metrics: Record<string, number> }[] }[];

describe("stats", () => {
  test("global stats by day, zero-filled, match what was sent", async () => {
    const days = await get(`/v3/stats?start_date=${yesterday}&end_date=${today}`);
    expect(days.map((d) => d.date)).toEqual([yesterday, today]);
    expect(days[0]!.stats[0]!.metrics.requests).toBe(0);
    expect(days[1]!.stats[0]!.metrics).toMatchObject({ requests: 3, processed: 2, delivered: 2, bounce_drops: 1, bounces: 0, opens: 0 });
  });

  test("category stats and sums", async () => {
    const days = await get(`/v3/categories/stats?start_date=${today}&categories=promo&categories=spring`);
    expect(days).toHaveLength(1);
    expect(days[0]!.stats.map((s) => [s.name, s.metrics.delivered])).toEqual([["promo", 2], ["spring", 1]]);
    const [, sums] = await h.client.request({ method: "GET", url: `/v3/categories/stats/sums?start_date=${today}` });
    expect((sums as { stats: { name: string; metrics: { requests: number } }[] }).stats.map((s) => [s.name, s.metrics.requests])).toEqual([["promo", 2], ["receipt", 1], ["spring", 1]]);
  });

  test("a missing start_date is 400 in SendGrid's shape", async () => {
    await expect(h.client.request({ method: "GET", url: "/v3/stats" })).rejects.toMatchObject({ code: 400, response: { body: { errors: [{ field: "start_date" }] } } });
  });
});

// SparkPost's message events search (/api/v1/events/message) through the official sparkpost
// client: the events of what was sent, filtered by type and recipient, paged with links.next.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startSpEnv, type SpEnv } from "./setup.ts";

let env: SpEnv;
beforeAll(async () => {
  env = await startSpEnv();
  for (const address of ["ev1@dest.test", "ev2@dest.test"]) {
    await env.domain.transmissions.send({ content: { from: "news@example.com", subject: "events", text: "t" }, recipients: [{ address }] });
  }
  const deadline = Date.now() + 20_000;
  while ((await env.t.app.activity.events("example.com", { types: ["delivered"], limit: 10 })).length < 2 && Date.now() < deadline) await Bun.sleep(50);
});
afterAll(async () => { await env.close(); });

describe("message events search", () => {
  test("filters by event type and recipient, in SparkPost's event shape", async () => {
    const res = await env.domain.get({ uri: "events/message", qs: { events: "delivery", recipients: "ev1@dest.test" } });
    expect(res.results).toHaveLength(1);
    expect(res.results[0]).toMatchObject({ type: "delivery", rcpt_to: "ev1@dest.test", subject: "events", friendly_from: "news@example.com" });
    const all = await env.account.get({ uri: "events/message", qs: { events: "injection,delivery" } });
    expect(all.results.map((e: { type: string }) => e.type).sort()).toEqual(["delivery", "delivery", "injection", "injection"]);
  });

  test("pages with per_page and links.next", async () => {
    const first = await env.domain.get({ uri: "events/message", qs: { events: "injection,delivery", per_page: 3 } });
    expect(first.results).toHaveLength(3);
    const next = new URL(first.links.next, env.origin);
    const second = await env.domain.get({ uri: "events/message", qs: Object.fromEntries(next.searchParams) });
    expect(second.results).toHaveLength(1);
    const ids = [...first.results, ...second.results].map((e: { event_id: string }) => e.event_id);
    expect(new Set(ids).size).toBe(4);
  });
});

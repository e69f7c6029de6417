import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { startHarness, eventually, type MailgunHarness, jsonOf } from "./helpers.ts";

// Real servers and an SMTP sink on a shared 2-core machine: generous, never timing-based.
setDefaultTimeout(60_000);

let h: MailgunHarness;
const ids: string[] = [];
beforeAll(async () => {
  h = await startHarness();
  await h.mg.suppressions.create("example.com", "bounces", { address: "dead@dest.test" });
  for (const to of ["e1@dest.test", "e2@dest.test", "e3@dest.test", "dead@dest.test"]) {
    const res = await h.mg.messages.create("example.com", { from: "a@example.com", to, subject: `events ${to}`, text: "x", "o:tag": "evt", "v:n": to });
    ids.push(res.id!);
  }
  await h.sink.waitFor(3);
  await eventually(async () => (await h.t.app.activity.events("example.com", { types: ["delivered"], limit: 10 })).length === 3);
});
afterAll(async () => { await h.close(); });

describe("events through mailgun.js", () => {
  test("items are Mailgun event JSON with float timestamps and the message id without brackets", async () => {
    const { items } = await h.mg.events.get("example.com", { event: "delivered", recipient: "e1@dest.test" });
    expect(items).toHaveLength(1);
    const e = items[0] as unknown as Record<string, unknown>;
    expect(e).toMatchObject({
      event: "delivered", recipient: "e1@dest.test", "recipient-domain": "dest.test", tags: ["evt"], "user-variables": { n: "e1@dest.test" },
      "log-level": "info", message: { headers: { "message-id": ids[0]!.slice(1, -1), from: "a@example.com", subject: "events e1@dest.test", to: "e1@dest.test" } },
      "delivery-status": { code: 250 },
    });
    expect(typeof e.timestamp).toBe("number");
    expect(Math.abs((e.timestamp as number) - Date.now() / 1000)).toBeLessThan(600);
    const byId = await h.mg.events.get("example.com", { "message-id": ids[1]!.slice(1, -1), event: "accepted" });
    expect(byId.items.map((i) => i.recipient)).toEqual(["e2@dest.test"]);
  });

  test("page tokens walk the list: limit, next, previous, first, last", async () => {
    const rcpts = (r: { items: { recipient?: string }[] }) => r.items.map((i) => i.recipient);
    const first = await h.mg.events.get("example.com", { event: "accepted OR failed", ascending: "yes", limit: 2 });
    expect(rcpts(first)).toHaveLength(2);
    for (const p of Object.values(first.pages)) expect(p.url).toStartWith(`${h.base}/v3/example.com/events/`);
    expect(first.pages.next!.page).not.toContain("/");
    const second = await h.mg.events.get("example.com", { page: first.pages.next!.page });
    expect([...rcpts(first), ...rcpts(second)].sort()).toEqual(["dead@dest.test", "e1@dest.test", "e2@dest.test", "e3@dest.test"]);
    const times = [...first.items, ...second.items].map((i) => (i as unknown as { timestamp: number }).timestamp);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const third = await h.mg.events.get("example.com", { page: second.pages.next!.page });
    expect(third.items).toEqual([]);
    const back = await h.mg.events.get("example.com", { page: second.pages.previous!.page });
    expect(rcpts(back)).toEqual(rcpts(first));
    const last = await h.mg.events.get("example.com", { page: first.pages.last!.page });
    expect(rcpts(last)).toEqual(rcpts(second));
    const newest = await h.mg.events.get("example.com", { event: "accepted OR failed", limit: 1 });
    expect(rcpts(newest)).toEqual([rcpts(second)[1]]);
  });

  test("failed events carry severity; a bad page token is 400", async () => {
    const { items } = await h.mg.events.get("example.com", { event: "failed", severity: "permanent" });
    expect(items.map((i) => [i.recipient, (i as unknown as { severity: string }).severity])).toEqual([["dead@dest.test", "permanent"]]);
    const res = await h.call("GET", "/v3/example.com/events/not-a-token");
    expect(res.status).toBe(400);
    expect(await jsonOf(res)).toEqual({ message: "invalid page token" });
  });
});

describe("stats through mailgun.js", () => {
  test("domain totals per bucket, with RFC 2822 dates the client parses", async () => {
    const stats = await h.mg.stats.getDomain("example.com", { event: ["accepted", "delivered", "failed"], duration: "1d", resolution: "hour" });
    expect(stats.resolution).toBe("hour");
    expect(stats.start).toBeInstanceOf(Date);
    expect(stats.stats.length).toBeGreaterThanOrEqual(24);
    for (const s of stats.stats) expect(Number.isNaN((s.time as Date).getTime())).toBe(false);
    const sum = (pick: (s: Record<string, any>) => number) => stats.stats.reduce((n, s) => n + pick(s as Record<string, any>), 0);
    expect(sum((s) => s.accepted.total)).toBe(3);
    expect(sum((s) => s.delivered.total)).toBe(3);
    expect(sum((s) => s.failed.permanent.total)).toBe(1);
    expect(stats.stats[0]).not.toHaveProperty("opened");
  });

  test("account totals; event is required", async () => {
    const stats = await h.mg.stats.getAccount({ event: "delivered", start: new Date(Date.now() - 86_400_000).toUTCString(), resolution: "day" });
    expect(stats.stats.reduce((n, s) => n + (s as any).delivered.total, 0)).toBe(3);
    const err = await h.mg.stats.getDomain("example.com", {} as never).catch((e) => e);
    expect(err.status).toBe(400);
  });
});

describe("account totals and tenants", () => {
  test("the account-wide total is the acting tenant's: a subaccount's key never counts another tenant's mail", async () => {
    await h.mg.subaccounts.create("acme");
    await h.t.app.domains.add("acme.test", { tenant: 1 });
    await h.t.app.domains.verify("acme.test", true);
    const acme = h.client((await h.t.app.access.createKey({ kind: "account", tenant: 1 })).key);
    await acme.messages.create("acme.test", { from: "a@acme.test", to: "t1@dest.test", subject: "acme", text: "x" });
    const accepted = async (mg: typeof h.mg) => (await mg.stats.getAccount({ event: "accepted", start: new Date(Date.now() - 86_400_000).toUTCString(), resolution: "day" }))
      .stats.reduce((n, s) => n + (s as any).accepted.total, 0);
    expect(await accepted(acme)).toBe(1);
    expect(await accepted(h.mg)).toBe(3); // the primary's own (its suppressed send is not accepted)
    h.mg.setSubaccount("1");
    try { expect(await accepted(h.mg)).toBe(1); } finally { h.mg.resetSubaccount(); }
  });
});

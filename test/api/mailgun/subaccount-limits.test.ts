// A subaccount's custom monthly sending limit through the unchanged mailgun.js
// (setMonthlySendingLimit, getMonthlySendingLimit) and DELETE in-process: the limit counts the
// tenant's month (sends before it was set included), the tenant's sends past it get Mailgun's 402
// while the primary keeps sending; removed, the tenant sends again. Only the primary manages it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { jsonOf, startHarness, type MailgunHarness } from "./helpers.ts";

let h: MailgunHarness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });

const fail = async (p: Promise<unknown>) => { try { await p; } catch (e) { return e as { status: number; details?: string }; } throw new Error("expected a failure"); };
const msg = (from: string, to = "r@dest.test") => ({ from, to: [to], subject: "s", text: "t" });

test("set, read, reach and remove a subaccount's monthly limit", async () => {
  const mg = h.client(h.t.accountKey);
  await mg.subaccounts.create("acme");
  mg.setSubaccount("1");
  await mg.domains.create({ name: "acme.test" });
  await h.t.app.domains.verify("acme.test", true);
  expect((await mg.messages.create("acme.test", msg("a@acme.test"))).status).toBe(200);
  mg.resetSubaccount();

  expect(await mg.subaccounts.setMonthlySendingLimit("1", 3)).toEqual({ success: true });
  // The message sent before the limit counts: the month is read when the limit is set.
  expect(await mg.subaccounts.getMonthlySendingLimit("1")).toEqual({ limit: 3, current: 1, period: "1m" });
  mg.setSubaccount("1");
  expect((await mg.messages.create("acme.test", msg("a@acme.test"))).status).toBe(200);
  expect((await mg.messages.create("acme.test", msg("a@acme.test"))).status).toBe(200);
  const over = await fail(mg.messages.create("acme.test", msg("a@acme.test")));
  expect(over.status).toBe(402);
  expect(over.details).toContain("monthly limit of 3 messages reached for tenant acme");
  mg.resetSubaccount();
  // Another tenant's limit does not stop the primary.
  expect((await mg.messages.create("example.com", msg("a@example.com"))).status).toBe(200);
  expect(await mg.subaccounts.getMonthlySendingLimit("1")).toEqual({ limit: 3, current: 3, period: "1m" });
  // Raised, the same month's count goes on.
  await mg.subaccounts.setMonthlySendingLimit("1", 4);
  mg.setSubaccount("1");
  expect((await mg.messages.create("acme.test", msg("a@acme.test"))).status).toBe(200);
  expect((await fail(mg.messages.create("acme.test", msg("a@acme.test")))).status).toBe(402);
  mg.resetSubaccount();

  const removed = await h.call("DELETE", "/v5/accounts/subaccounts/1/limit/custom/monthly");
  expect([removed.status, await jsonOf(removed)]).toEqual([200, { success: true }]);
  expect((await fail(mg.subaccounts.getMonthlySendingLimit("1"))).status).toBe(404);
  mg.setSubaccount("1");
  expect((await mg.messages.create("acme.test", msg("a@acme.test"))).status).toBe(200);
});

test("refusals: a bad limit is Mailgun's 400, an unknown subaccount 404, a tenant's own key 403", async () => {
  const bad = await h.call("PUT", "/v5/accounts/subaccounts/1/limit/custom/monthly?limit=lots");
  expect([bad.status, (await jsonOf(bad)).message]).toEqual([400, expect.stringContaining("whole number")]);
  expect((await h.call("PUT", "/v5/accounts/subaccounts/1/limit/custom/monthly")).status).toBe(400);
  expect((await fail(h.mg.subaccounts.getMonthlySendingLimit("9"))).status).toBe(404);
  expect((await fail(h.mg.subaccounts.setMonthlySendingLimit("0", 5))).status).toBe(404);
  const own = h.client((await h.t.app.access.createKey({ kind: "account", tenant: 1 })).key);
  expect((await fail(own.subaccounts.setMonthlySendingLimit("1", 1000))).status).toBe(403);
  expect((await fail(own.subaccounts.getMonthlySendingLimit("1"))).status).toBe(403);
});

test("the account's own limit (/v5/accounts/limit/custom/monthly) is the primary's", async () => {
  const put = await h.call("PUT", "/v5/accounts/limit/custom/monthly?limit=1000");
  expect([put.status, await jsonOf(put)]).toEqual([200, { success: true }]);
  const got = await h.call("GET", "/v5/accounts/limit/custom/monthly");
  expect(await jsonOf(got)).toEqual({ limit: 1000, current: expect.any(Number), period: "1m" });
  expect((await h.t.app.tenantQuota.usage(0)).limit).toBe(1000);
  // Acting for a subaccount, the account routes are refused: a tenant never lifts its own limit.
  expect((await h.call("PUT", "/v5/accounts/limit/custom/monthly?limit=5", { headers: { "X-Mailgun-On-Behalf-Of": "1" } })).status).toBe(403);
  expect((await h.call("DELETE", "/v5/accounts/limit/custom/monthly")).status).toBe(200);
  expect((await h.call("GET", "/v5/accounts/limit/custom/monthly")).status).toBe(404);
});

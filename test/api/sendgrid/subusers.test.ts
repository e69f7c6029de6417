// SendGrid subusers and on-behalf-of through the unchanged @sendgrid/client (setImpersonateSubuser):
// create, list, disable and enable, stats per subuser; impersonating a subuser scopes the stats and
// suppressions to its domains; on-behalf-of is ignored on /v3/mail/send only; a tenant's
// suppressions stop only its own mail; a disabled subuser's key cannot send.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { eventually, startHarness, type SendgridHarness } from "./setup.ts";

setDefaultTimeout(60_000);
let h: SendgridHarness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });

const today = new Date().toISOString().slice(0, 10);
type Failure = { code: number; response: { body: { errors: { field?: string; message: string }[] } } };
const fail = async (p: Promise<unknown>) => { try { await p; } catch (e) { return e as Failure; } throw new Error("expected a failure"); };

test("subusers: create, list, disable, enable; impersonation scopes reads; stats per subuser; suppressions stay per tenant", async () => {
  const { client: acct } = h.clientsFor(h.t.accountKey);
  const req = (method: "GET" | "POST" | "PATCH", url: string, body?: object) => acct.request({ method, url, ...(body ? { body } : {}) });
  const [created, body] = await req("POST", "/v3/subusers", { username: "acme", email: "ops@acme.test", password: "secret-pass", ips: ["127.0.0.1"] });
  expect([created.statusCode, body]).toEqual([200, { username: "acme", user_id: 1, email: "ops@acme.test", credit_allocation: { type: "unlimited" } }]);
  expect((await fail(req("POST", "/v3/subusers", { username: "acme", email: "a@acme.test", password: "x" }))).code).toBe(400);
  expect((await fail(req("POST", "/v3/subusers", { username: "beta", password: "x" }))).response.body.errors[0]!.field).toBe("email");
  expect((await req("GET", "/v3/subusers"))[1]).toEqual([{ id: 1, username: "acme", disabled: false }]);

  // The tenant's domain and its own sending key; the primary's suppression of an address does not stop acme's mail.
  await h.t.app.domains.add("acme.test", { tenant: 1 });
  await h.t.app.domains.verify("acme.test", true);
  const acme = h.clientsFor((await h.t.app.access.createKey({ kind: "domain", domain: "acme.test", tenant: 1 })).key);
  await h.t.app.suppressions.add("example.com", "bounces", [{ address: "both@dest.test", code: "550" }]);
  await h.mail.send({ to: "both@dest.test", from: "a@example.com", subject: "primary", text: "t" });
  // on-behalf-of does not apply to /v3/mail/send: a name that is no subuser changes nothing there.
  acme.client.setImpersonateSubuser("nobody");
  await acme.mail.send({ to: "both@dest.test", from: "a@acme.test", subject: "acme", text: "t" });
  acme.client.setImpersonateSubuser("");
  await eventually(() => h.t.app.activity.events("acme.test", { types: ["delivered"], limit: 10 }), (l) => l.length === 1);
  expect(h.sink.messages.filter((m) => m.to.includes("both@dest.test"))).toHaveLength(1);

  // Stats: the primary's own (no header), the subuser's through impersonation, and /v3/subusers/stats.
  const requests = async (url: string) => ((await acct.request({ method: "GET", url }))[1] as { stats: { name?: string; metrics: { requests: number; delivered: number } }[] }[])[0]!.stats;
  expect((await requests(`/v3/stats?start_date=${today}`))[0]!.metrics.requests).toBe(1);
  expect((await requests(`/v3/subusers/stats?start_date=${today}&subusers=acme`)).map((s) => [s.name, s.metrics.delivered])).toEqual([["acme", 1]]);
  // Suppressions: the primary's bounce is listed for the primary, not when acting for acme.
  const bounces = async () => ((await acct.request({ method: "GET", url: "/v3/suppression/bounces" }))[1] as { email: string }[]).map((b) => b.email);
  expect(await bounces()).toContain("both@dest.test");
  acct.setImpersonateSubuser("acme");
  expect(await bounces()).toEqual([]);
  expect((await requests(`/v3/stats?start_date=${today}`))[0]!.metrics).toMatchObject({ requests: 1, delivered: 1 });
  // Acting for acme: another tenant's domain is refused, subusers are the primary's business.
  expect((await fail(acct.request({ method: "GET", url: "/v3/subusers" }))).code).toBe(403);
  acct.setImpersonateSubuser("nobody");
  expect((await fail(acct.request({ method: "GET", url: `/v3/stats?start_date=${today}` }))).code).toBe(403);
  acct.setImpersonateSubuser("");

  // A tenant key cannot act for the primary or another subuser.
  const acmeAccount = h.clientsFor((await h.t.app.access.createKey({ kind: "account", tenant: 1 })).key).client;
  acmeAccount.setImpersonateSubuser("primary");
  expect((await fail(acmeAccount.request({ method: "GET", url: `/v3/stats?start_date=${today}` }))).code).toBe(403);

  // Disabled: read-only, no sending; enabled again, it sends.
  expect((await req("PATCH", "/v3/subusers/acme", { disabled: true }))[0].statusCode).toBe(204);
  expect((await req("GET", "/v3/subusers?username=acme"))[1]).toEqual([{ id: 1, username: "acme", disabled: true }]);
  expect((await fail(acme.mail.send({ to: "x@dest.test", from: "a@acme.test", subject: "s", text: "t" }))).code).toBe(403);
  expect((await fail(req("PATCH", "/v3/subusers/acme", { disabled: "yes" }))).code).toBe(400);
  expect((await fail(req("PATCH", "/v3/subusers/nobody", { disabled: false }))).code).toBe(404);
  await req("PATCH", "/v3/subusers/acme", { disabled: false });
  await acme.mail.send({ to: "x@dest.test", from: "a@acme.test", subject: "s", text: "t" });
});

// Tenant scoping of SendGrid's account-level data through the unchanged @sendgrid/client
// (docs/tenants.md): templates, unsubscribe groups, scheduled-send batches, the Event Webhook
// settings and Inbound Parse settings made while impersonating a subuser (on-behalf-of) are that
// subuser's, invisible to the primary and to another subuser; mail/send resolves template_id within
// the sender's own tenant, so another tenant's template id is SendGrid's 400 on template_id.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { Client } from "@sendgrid/client";
import { eventually, parsedFor, startHarness, type SendgridHarness } from "./setup.ts";
import { startReceiver } from "../../helpers/receiver.ts";

setDefaultTimeout(60_000);
let h: SendgridHarness;
let primary: Client;
let acmeKey: ReturnType<SendgridHarness["clientsFor"]>;
let betaAccount: Client;
beforeAll(async () => {
  h = await startHarness({ toml: "[webhooks]\nallow_private = true\n" });
  primary = h.clientsFor(h.t.accountKey).client;
  for (const name of ["acme", "beta"]) await h.t.app.tenants.add(name);
  await h.t.app.domains.add("acme.test", { tenant: 1 });
  await h.t.app.domains.verify("acme.test", true);
  acmeKey = h.clientsFor((await h.t.app.access.createKey({ kind: "domain", domain: "acme.test", tenant: 1 })).key);
  betaAccount = h.clientsFor((await h.t.app.access.createKey({ kind: "account", tenant: 2 })).key).client;
});
afterAll(async () => { await h.close(); });

type Body = Record<string, any>;
/** One call as `subuser` (on-behalf-of) or as the key's own tenant (""). */
async function call(c: Client, subuser: string, method: string, url: string, body?: unknown): Promise<[number, Body]> {
  c.setImpersonateSubuser(subuser);
  try {
    const [res, b] = await c.request({ method: method as "GET", url, ...(body !== undefined ? { body: body as object } : {}) });
    return [res.statusCode, b as Body];
  } catch (err) {
    const e = err as { code: number; response: { body: Body } };
    return [e.code, e.response.body];
  } finally {
    c.setImpersonateSubuser("");
  }
}

test("templates: a subuser's are invisible to the primary and another subuser; mail/send uses only the sender's tenant's", async () => {
  const [s0, mine] = await call(primary, "", "POST", "/v3/templates", { name: "primary-only", generation: "dynamic" });
  const [s1, theirs] = await call(primary, "acme", "POST", "/v3/templates", { name: "acme-welcome", generation: "dynamic" });
  expect([s0, s1]).toEqual([201, 201]);
  for (const [t, subject] of [[mine, "Primary {{n}}"], [theirs, "Acme {{n}}"]] as const) {
    const [vs] = await call(primary, t === theirs ? "acme" : "", "POST", `/v3/templates/${t.id}/versions`, { name: "v1", subject, html_content: "<p>{{n}}</p>", active: 1 });
    expect(vs).toBe(201);
  }
  const ids = async (c: Client, subuser: string) => (await call(c, subuser, "GET", "/v3/templates?generations=dynamic"))[1].templates.map((t: Body) => t.id);
  expect(await ids(primary, "")).toEqual([mine.id]);
  expect(await ids(primary, "acme")).toEqual([theirs.id]);
  expect(await ids(primary, "beta")).toEqual([]);
  expect(await ids(betaAccount, "")).toEqual([]);
  expect((await call(primary, "", "GET", `/v3/templates/${theirs.id}`))[0]).toBe(404);
  expect((await call(betaAccount, "", "DELETE", `/v3/templates/${theirs.id}`))[0]).toBe(404);
  expect((await call(primary, "acme", "GET", `/v3/templates/${theirs.id}`))[1].name).toBe("acme-welcome");

  // acme's own domain key: its tenant's account template renders; the primary's id is unknown to it.
  const [bad, body] = await call(acmeKey.client, "", "POST", "/v3/mail/send", { from: { email: "a@acme.test" }, template_id: mine.id,
    personalizations: [{ to: [{ email: "x@dest.test" }] }] });
  expect(bad).toBe(400);
  expect(body.errors[0].field).toBe("template_id");
  await acmeKey.mail.send({ to: "acme-tpl@dest.test", from: "a@acme.test", templateId: theirs.id, dynamicTemplateData: { n: 7 } });
  const [m] = await eventually(() => parsedFor(h.sink, "acme-tpl@dest.test"), (l) => l.length >= 1);
  expect(m!.email.subject).toBe("Acme 7");
  // The audit log records the changes made on behalf of acme under acme.
  const audit = (await h.t.app.audit.list({ action: "template", limit: 50 })).items.map((e) => [e.action, e.target, e.tenant]);
  expect(audit).toContainEqual(["template.create", theirs.id, 1]);
  expect(audit).toContainEqual(["template.create", mine.id, 0]);
  expect(audit).toContainEqual(["template.update", theirs.id, 1]);
});

test("unsubscribe groups and their suppressions: a subuser's are invisible to the primary and another subuser", async () => {
  const [s0, g0] = await call(primary, "", "POST", "/v3/asm/groups", { name: "News", description: "primary" });
  const [s1, g1] = await call(primary, "acme", "POST", "/v3/asm/groups", { name: "News", description: "acme" });
  expect([s0, s1]).toEqual([201, 201]);
  const names = async (c: Client, subuser: string) => (await call(c, subuser, "GET", "/v3/asm/groups"))[1].map((g: Body) => [g.id, g.description]);
  expect(await names(primary, "")).toEqual([[g0.id, "primary"]]);
  expect(await names(primary, "acme")).toEqual([[g1.id, "acme"]]);
  expect(await names(betaAccount, "")).toEqual([]);
  expect((await call(primary, "", "GET", `/v3/asm/groups/${g1.id}`))[0]).toBe(404);
  expect((await call(betaAccount, "", "PATCH", `/v3/asm/groups/${g1.id}`, { name: "Mine" }))[0]).toBe(404);
  expect((await call(primary, "acme", "POST", `/v3/asm/groups/${g1.id}/suppressions`, { recipient_emails: ["left@dest.test"] }))[0]).toBe(201);
  expect((await call(primary, "acme", "GET", `/v3/asm/groups/${g1.id}/suppressions`))[1]).toEqual(["left@dest.test"]);
  expect((await call(primary, "", "GET", `/v3/asm/groups/${g1.id}/suppressions`))[0]).toBe(404);
  expect((await call(primary, "", "GET", "/v3/asm/suppressions"))[1]).toEqual([]);
  // The entry lives on acme's domain only: the primary's domain is not touched.
  expect(await h.t.app.suppressions.get("example.com", `group:${g1.id}`, "left@dest.test")).toBeNull();
  expect(await h.t.app.suppressions.get("acme.test", `group:${g1.id}`, "left@dest.test")).toMatchObject({ address: "left@dest.test" });
});

test("scheduled-send batches: a subuser's batch is not the primary's", async () => {
  const [s, b] = await call(primary, "acme", "POST", "/v3/mail/batch");
  expect(s).toBe(201);
  expect((await call(primary, "acme", "POST", "/v3/user/scheduled_sends", { batch_id: b.batch_id, status: "pause" }))[0]).toBe(201);
  expect((await call(primary, "acme", "GET", "/v3/user/scheduled_sends"))[1]).toEqual([{ batch_id: b.batch_id, status: "pause" }]);
  expect((await call(primary, "", "GET", "/v3/user/scheduled_sends"))[1]).toEqual([]);
  expect((await call(primary, "", "GET", `/v3/mail/batch/${b.batch_id}`))[0]).toBe(400);
  expect((await call(betaAccount, "", "POST", "/v3/user/scheduled_sends", { batch_id: b.batch_id, status: "cancel" }))[0]).toBe(400);
  expect((await call(primary, "", "DELETE", `/v3/user/scheduled_sends/${b.batch_id}`))[0]).toBe(404);
  expect((await call(primary, "acme", "GET", `/v3/user/scheduled_sends/${b.batch_id}`))[1]).toEqual([{ batch_id: b.batch_id, status: "pause" }]);
  const audit = (await h.t.app.audit.list({ action: "batch", limit: 10 })).items.map((e) => [e.action, e.target, e.tenant]);
  expect(audit).toEqual([["batch.pause", b.batch_id, 1], ["batch.create", b.batch_id, 1]]);
  // The primary's mail naming acme's paused batch is not held by it: a tenant pauses only its own mail.
  await h.mail.send({ to: "not-held@dest.test", from: "a@example.com", subject: "s", text: "t", batchId: b.batch_id });
  expect(await eventually(async () => h.sink.messages.filter((m) => m.to.includes("not-held@dest.test")).length, (n) => n === 1)).toBe(1);
});

test("Event Webhook settings: each tenant has its own account-wide settings, posted only its own domains' events", async () => {
  const url = "/v3/user/webhooks/event/settings";
  const [p, a] = [startReceiver(), startReceiver()];
  try {
    expect((await call(primary, "", "PATCH", url, { enabled: true, url: p.url, delivered: true }))[0]).toBe(200);
    expect((await call(primary, "acme", "GET", url))[1]).toMatchObject({ enabled: false, url: "", delivered: false });
    expect((await call(primary, "acme", "PATCH", url, { enabled: true, url: a.url, delivered: true, bounce: true }))[0]).toBe(200);
    expect((await call(primary, "", "GET", url))[1]).toMatchObject({ enabled: true, url: p.url, delivered: true, bounce: false });
    expect((await call(primary, "acme", "GET", url))[1]).toMatchObject({ url: a.url, delivered: true, bounce: true });
    expect((await call(betaAccount, "", "GET", url))[1]).toMatchObject({ enabled: false, url: "" });
    const targets = (await h.t.app.webhooks.list(null)).filter((t) => t.extra.eventWebhook === true).map((t) => [t.url === a.url ? "acme" : "primary", t.tenantId ?? 0]);
    expect(targets.sort()).toEqual([["acme", 1], ["primary", 0]]);

    await h.mail.send({ to: "ew-primary@dest.test", from: "a@example.com", subject: "s", text: "t" });
    await acmeKey.mail.send({ to: "ew-acme@dest.test", from: "a@acme.test", subject: "s", text: "t" });
    const emails = (r: ReturnType<typeof startReceiver>) => r.received.flatMap((x) => (x.json as { email: string; event: string }[]).filter((e) => e.event === "delivered").map((e) => e.email));
    await p.waitFor(() => emails(p).includes("ew-primary@dest.test"));
    await a.waitFor(() => emails(a).includes("ew-acme@dest.test"));
    await Bun.sleep(300);
    expect(emails(a)).not.toContain("ew-primary@dest.test");
    expect(emails(p)).not.toContain("ew-acme@dest.test");
  } finally { p.stop(); a.stop(); }
});

test("Inbound Parse settings: a subuser configures only its own domains' hostnames, and sees only its own", async () => {
  const base = "/v3/user/webhooks/parse/settings";
  expect((await call(primary, "", "POST", base, { hostname: "in.example.com", url: "https://hooks.example/p" }))[0]).toBe(201);
  expect((await call(primary, "acme", "POST", base, { hostname: "in2.example.com", url: "https://hooks.example/x" }))[0]).toBe(400);
  expect((await call(primary, "acme", "POST", base, { hostname: "in.acme.test", url: "https://hooks.example/a" }))[0]).toBe(201);
  const hosts = async (c: Client, subuser: string) => (await call(c, subuser, "GET", base))[1].result.map((r: Body) => r.hostname);
  expect(await hosts(primary, "")).toEqual(["in.example.com"]);
  expect(await hosts(primary, "acme")).toEqual(["in.acme.test"]);
  expect(await hosts(betaAccount, "")).toEqual([]);
  expect((await call(primary, "", "GET", `${base}/in.acme.test`))[0]).toBe(404);
  expect((await call(betaAccount, "", "DELETE", `${base}/in.acme.test`))[0]).toBe(404);
});

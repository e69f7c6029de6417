// SendGrid /v3/alerts through the official @sendgrid/client: usage_limit alerts are postern's
// usage_limit rules (the share of a domain's sending limit used) and fire with mail to email_to;
// stats_notification is refused in SendGrid's error shape; domain keys are refused.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { requestWith, startHarness, type ClientRequest, type SendgridHarness } from "./setup.ts";
import type { Client } from "@sendgrid/client";

setDefaultTimeout(60_000);
let h: SendgridHarness;
let account: Client;
beforeAll(async () => {
  h = await startHarness();
  account = h.clientsFor(h.t.accountKey).client;
});
afterAll(async () => { await h.close(); });

const call = (req: ClientRequest, client = account) => requestWith(client, req);

test("create, read, update and delete a usage_limit alert", async () => {
  const made = await call({ method: "POST", url: "/v3/alerts", body: { type: "usage_limit", email_to: "ops@dest.test", percentage: 90 } });
  expect(made).toEqual({ status: 201, body: { id: expect.any(Number), type: "usage_limit", email_to: "ops@dest.test", percentage: 90,
    created_at: expect.any(Number), updated_at: expect.any(Number) } as never });
  const id = (made.body as { id: number }).id;
  expect(((await call({ method: "GET", url: "/v3/alerts" })).body as { id: number }[]).map((a) => a.id)).toEqual([id]);
  const patched = await call({ method: "PATCH", url: `/v3/alerts/${id}`, body: { percentage: 75, email_to: "noc@dest.test" } });
  expect(patched.body).toMatchObject({ id, percentage: 75, email_to: "noc@dest.test" });
  expect((await call({ method: "GET", url: `/v3/alerts/${id}` })).body).toMatchObject({ percentage: 75 });
  const native = (await h.t.app.alerts.configured()).find((r) => r.id === id)!;
  expect(native).toMatchObject({ metric: "usage_limit", threshold: 0.75, source: "sendgrid" });
  expect((await call({ method: "DELETE", url: `/v3/alerts/${id}` })).status).toBe(204);
  await expect(call({ method: "GET", url: `/v3/alerts/${id}` })).rejects.toMatchObject({ code: 404 });
});

test("stats_notification and bad fields are SendGrid's 400 with the field", async () => {
  await expect(call({ method: "POST", url: "/v3/alerts", body: { type: "stats_notification", email_to: "ops@dest.test", frequency: "daily" } }))
    .rejects.toMatchObject({ code: 400, response: { body: { errors: [{ field: "type", message: expect.stringMatching(/stats_notification is not available/) }] } } });
  await expect(call({ method: "POST", url: "/v3/alerts", body: { type: "usage_limit", email_to: "nope", percentage: 90 } }))
    .rejects.toMatchObject({ code: 400, response: { body: { errors: [{ field: "email_to" }] } } });
  await expect(call({ method: "POST", url: "/v3/alerts", body: { type: "usage_limit", email_to: "ops@dest.test", percentage: 140 } }))
    .rejects.toMatchObject({ code: 400, response: { body: { errors: [{ field: "percentage" }] } } });
});

test("a domain key may not manage alerts", async () => {
  await expect(call({ method: "GET", url: "/v3/alerts" }, h.client)).rejects.toMatchObject({ code: 403 });
});

test("a usage_limit alert fires when a domain has used that share of its sending limit, and mails email_to", async () => {
  await call({ method: "POST", url: "/v3/alerts", body: { type: "usage_limit", email_to: "quota@dest.test", percentage: 80 } });
  await h.t.app.domains.set("example.com", { limit: "10/day" });
  for (let i = 0; i < 9; i++) await h.mail.send({ to: `u${i}@dest.test`, from: "a@example.com", subject: "s", text: "t" });
  const fired = (await h.t.app.alerts.tick()).filter((n) => n.rule === "usage_limit");
  expect(fired).toMatchObject([{ state: "firing", subject: "example.com", value: 0.9, threshold: 0.8 }]);
  await h.t.app.alerts.settled();
  const deadline = Date.now() + 15_000;
  while (!h.sink.messages.some((m) => m.to.includes("quota@dest.test")) && Date.now() < deadline) await Bun.sleep(50);
  expect(h.sink.messages.find((m) => m.to.includes("quota@dest.test"))!.raw.toString()).toMatch(/usage_limit firing for example\.com: 90\.0 %/);
});

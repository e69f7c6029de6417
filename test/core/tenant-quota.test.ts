// Per-tenant monthly limits in a real app, over the SendGrid and SparkPost surfaces in-process (the
// Mailgun routes and SMTP have their own tests): the month counts per tenant from the moment a
// limit is set (seeded from the month's sends so far), its sends past it get each surface's
// over-limit answer (SendGrid 402, SparkPost 420 2101) and write nothing, other tenants go on; a
// new month starts at 0; a tenant without a limit is not counted. The clock is injected.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
let clock = Date.UTC(2027, 4, 30, 12);
let subKey = "";
beforeAll(async () => {
  t = await makeTestApp({ now: () => clock });
  for (const [name, domain] of [["acme", "acme.test"], ["beta", "beta.test"]] as const) {
    const tenant = await t.app.tenants.add(name);
    await t.app.domains.add(domain, { tenant: tenant.id });
    await t.app.domains.verify(domain, true);
  }
  subKey = (await t.app.access.createKey({ kind: "domain", domain: "acme.test", tenant: 1 })).key;
});
afterAll(async () => { await t.close(); });

const sendgrid = (key: string, from: string, personalizations = 1) => t.app.http(new Request("http://127.0.0.1/v3/mail/send", {
  method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
  body: JSON.stringify({ from: { email: from }, subject: "s", content: [{ type: "text/plain", value: "t" }],
    personalizations: Array.from({ length: personalizations }, (_, i) => ({ to: [{ email: `r${i}@dest.test` }] })) }),
}));
const sparkpost = (subaccount: number, from: string) => t.app.http(new Request("http://127.0.0.1/api/v1/transmissions", {
  method: "POST", headers: { authorization: t.accountKey, "content-type": "application/json", "x-msys-subaccount": String(subaccount) },
  body: JSON.stringify({ recipients: [{ address: "r@dest.test" }], content: { from, subject: "s", text: "t" } }),
}));

test("a tenant's sends past its month's limit get each surface's over-limit answer; others go on", async () => {
  expect((await sendgrid(subKey, "a@acme.test")).status).toBe(202);
  // No limit: nothing counted.
  expect(await t.app.store.control.tenantSends(1, Date.UTC(2027, 4, 1))).toBe(0);
  await t.app.tenantQuota.setLimit("acme", 4);
  expect(await t.app.tenantQuota.usage("acme")).toMatchObject({ limit: 4, used: 1, since: Date.UTC(2027, 4, 1) });
  // Two personalizations are two messages; three more would pass the limit.
  expect((await sendgrid(subKey, "a@acme.test", 2)).status).toBe(202);
  const over = await sendgrid(subKey, "a@acme.test", 2);
  expect(over.status).toBe(402);
  expect(((await over.json()) as { errors: { message: string }[] }).errors[0]!.message).toContain("monthly limit of 4 messages reached for tenant acme");
  expect((await sendgrid(subKey, "a@acme.test")).status).toBe(202);
  const sp = await sparkpost(1, "a@acme.test");
  expect([sp.status, await sp.json()]).toEqual([420, { errors: [{ message: expect.stringContaining("monthly limit of 4"), code: "2101" }] }]);
  expect((await t.app.tenantQuota.usage("acme")).used).toBe(4);
  // The refused sends wrote nothing: four messages of acme.test this month.
  expect(await t.app.store.zone("us").countSends("acme.test", Date.UTC(2027, 4, 1))).toBe(4);
  expect((await sparkpost(2, "b@beta.test")).status).toBe(200);
  expect((await sendgrid(t.domainKey, "p@example.com")).status).toBe(202);

  // The next month starts at 0.
  clock = Date.UTC(2027, 5, 1, 0, 0, 1);
  expect((await sparkpost(1, "a@acme.test")).status).toBe(200);
  expect(await t.app.tenantQuota.usage(1)).toMatchObject({ limit: 4, used: 1, since: Date.UTC(2027, 5, 1) });
  // Cleared: counting stops, the usage is read from the month's messages.
  await t.app.tenantQuota.setLimit(1, null);
  expect((await sendgrid(subKey, "a@acme.test", 5)).status).toBe(202);
  expect(await t.app.tenantQuota.usage(1)).toMatchObject({ limit: null, used: 6 });
  await expect(t.app.tenantQuota.setLimit(1, -1)).rejects.toThrow(/whole number/);
});

test("a limit of 0 stops the tenant's mail; the primary can have a limit too", async () => {
  await t.app.tenantQuota.setLimit("beta", 0);
  expect((await sparkpost(2, "b@beta.test")).status).toBe(420);
  await t.app.tenantQuota.setLimit(0, 1);
  expect((await sendgrid(t.domainKey, "p@example.com")).status).toBe(202);
  expect((await sendgrid(t.domainKey, "p@example.com")).status).toBe(402);
  expect((await sparkpost(1, "a@acme.test")).status).toBe(200);
});

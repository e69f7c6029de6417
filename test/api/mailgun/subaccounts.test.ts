// Mailgun subaccounts and X-Mailgun-On-Behalf-Of through the unchanged mailgun.js (its
// setSubaccount()): create, list, get, disable and enable; with the header the primary's key sees
// and sends as the tenant, without it only the primary; a disabled tenant reads but cannot send;
// a tenant's key naming another tenant is refused; only the primary manages subaccounts.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startHarness, type MailgunHarness } from "./helpers.ts";

let h: MailgunHarness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });

const fail = async (p: Promise<unknown>) => { try { await p; } catch (e) { return e as { status: number; details?: string }; } throw new Error("expected a failure"); };
const names = (list: { name: string }[]) => list.map((d) => d.name).sort();
const msg = (from: string) => ({ from, to: ["r@dest.test"], subject: "s", text: "t" });

test("subaccounts: create, list, get, disable, enable; the header scopes domains and sending", async () => {
  const mg = h.client(h.t.accountKey);
  const { subaccount } = await mg.subaccounts.create("acme");
  expect(subaccount).toMatchObject({ id: "1", name: "acme", status: "open", features: { sending: { enabled: true } } });
  expect(subaccount.created_at).toBeInstanceOf(Date);
  await mg.subaccounts.create("beta");
  // A taken name: Mailgun answers conflicts with 400 (api/mailgun/errors.ts).
  expect((await fail(mg.subaccounts.create("acme"))).status).toBe(400);
  const list = await mg.subaccounts.list();
  expect([list.total, list.subaccounts.map((s) => [s.id, s.name])]).toEqual([2, [["1", "acme"], ["2", "beta"]]]);
  expect((await mg.subaccounts.get("2")).subaccount.name).toBe("beta");
  expect((await fail(mg.subaccounts.get("9"))).status).toBe(404);

  mg.setSubaccount("1");
  await mg.domains.create({ name: "acme.test" });
  await h.t.app.domains.verify("acme.test", true);
  expect(names(await mg.domains.list())).toEqual(["acme.test"]);
  expect((await mg.messages.create("acme.test", msg("a@acme.test"))).status).toBe(200);
  // Acting for acme, the primary's domain is another tenant's: refused.
  expect((await fail(mg.messages.create("example.com", msg("a@example.com")))).status).toBe(403);
  expect((await fail(mg.domains.get("example.com"))).status).toBe(403);
  // Only the primary, acting for itself, manages subaccounts.
  expect((await fail(mg.subaccounts.list())).status).toBe(403);
  mg.resetSubaccount();
  expect(names(await mg.domains.list())).toEqual(["example.com"]);
  expect((await fail(mg.messages.create("acme.test", msg("a@acme.test")))).status).toBe(403);

  const disabled = await mg.subaccounts.disable("1");
  expect(disabled).toMatchObject({ subaccount: { id: "1", status: "disabled" } });
  mg.setSubaccount("1");
  expect(names(await mg.domains.list())).toEqual(["acme.test"]);
  expect((await fail(mg.messages.create("acme.test", msg("a@acme.test")))).status).toBe(403);
  mg.resetSubaccount();
  expect((await mg.subaccounts.enable("1")).subaccount.status).toBe("open");
  mg.setSubaccount("1");
  expect((await mg.messages.create("acme.test", msg("b@acme.test"))).status).toBe(200);

  // A tenant's own key acts only for its tenant.
  const own = h.client((await h.t.app.access.createKey({ kind: "account", tenant: 1 })).key);
  expect(names(await own.domains.list())).toEqual(["acme.test"]);
  own.setSubaccount("2");
  expect((await fail(own.domains.list())).status).toBe(403);
  own.setSubaccount("0");
  expect((await fail(own.domains.list())).status).toBe(403);
  mg.setSubaccount("7");
  expect((await fail(mg.domains.list())).status).toBe(403);
});

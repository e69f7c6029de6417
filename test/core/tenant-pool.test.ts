// A tenant's egress pool at a real sink, through the unchanged mailgun.js: mail of the tenant's
// domains leaves from its pool's source address; a message naming a pool, or a domain with a pool
// of its own, wins; the primary's mail keeps the default pool. A pool given to a tenant applies to
// its mail already queued (read at each attempt).
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { startHarness, type MailgunHarness } from "../api/mailgun/helpers.ts";
import { peerFor } from "../helpers/egress.ts";

setDefaultTimeout(60_000);
const toml = `[mta.egress.ip2]\nsource_address = "127.0.0.2"\n[mta.egress.ip3]\nsource_address = "127.0.0.3"\n[mta.egress.ip4]\nsource_address = "127.0.0.4"\n`
  + `[mta.pools.default]\nsources = ["ip2"]\n[mta.pools.bulk]\nsources = ["ip3"]\n[mta.pools.tenants]\nsources = ["ip4"]\n`;
let h: MailgunHarness;
beforeAll(async () => { h = await startHarness({ toml }); });
afterAll(async () => { await h.close(); });

const msg = (from: string, to: string, extra: Record<string, string> = {}) => ({ from, to: [to], subject: "s", text: "t", ...extra });

test("a tenant's mail leaves from its pool unless the message or the domain names one", async () => {
  const mg = h.client(h.t.accountKey);
  await mg.subaccounts.create("acme");
  await h.t.app.domains.add("acme.test", { tenant: 1 });
  await h.t.app.domains.verify("acme.test", true);
  await h.t.app.domains.add("own.acme.test", { tenant: 1 });
  await h.t.app.domains.verify("own.acme.test", true);
  await h.t.app.domains.set("own.acme.test", { pool: "bulk" });
  expect((await h.t.app.tenants.setPool("acme", "tenants")).pool).toBe("tenants");
  await expect(h.t.app.tenants.setPool("acme", "nope")).rejects.toThrow(/unknown ip pool "nope"/);

  mg.setSubaccount("1");
  await mg.messages.create("acme.test", msg("a@acme.test", "tenant@dest.test"));
  await mg.messages.create("acme.test", msg("a@acme.test", "named@dest.test", { "o:sending-ip-pool": "bulk" }));
  await mg.messages.create("own.acme.test", msg("a@own.acme.test", "domain@dest.test"));
  mg.resetSubaccount();
  await mg.messages.create("example.com", msg("a@example.com", "primary@dest.test"));
  expect(await peerFor(h.sink, "tenant@dest.test")).toBe("127.0.0.4");
  expect(await peerFor(h.sink, "named@dest.test")).toBe("127.0.0.3");
  expect(await peerFor(h.sink, "domain@dest.test")).toBe("127.0.0.3");
  expect(await peerFor(h.sink, "primary@dest.test")).toBe("127.0.0.2");
});

test("a pool given to a tenant whose mail is queued: the mail leaves from it", async () => {
  const beta = await h.t.app.tenants.add("beta");
  await h.t.app.domains.add("beta.test", { tenant: beta.id });
  await h.t.app.domains.verify("beta.test", true);
  await h.t.app.tenants.setPool("beta", "bulk");
  // Scheduled a second ahead: queued when the pool changes.
  const at = new Date(Date.now() + 1500).toUTCString();
  const mg = h.client(h.t.accountKey);
  mg.setSubaccount(String(beta.id));
  await mg.messages.create("beta.test", msg("b@beta.test", "later@dest.test", { "o:deliverytime": at }));
  await h.t.app.tenants.setPool("beta", null);
  await h.t.app.tenants.setPool("beta", "tenants");
  expect(await peerFor(h.sink, "later@dest.test")).toBe("127.0.0.4");
});

test("poolsServing and checkTenantEgress: a tenant's pool (else default) and its domains' own; another pool is unknown to it", async () => {
  const { poolsServing, checkTenantEgress } = await import("../../src/core/tenant-pool.ts");
  const { createEgressDirectory } = await import("../../src/core/egress/directory.ts");
  expect([...poolsServing(undefined, [])]).toEqual(["default"]);
  expect([...poolsServing("bulk", [{ pool: "" }, { pool: "vip" }, {}])].sort()).toEqual(["bulk", "vip"]);
  const egress = createEgressDirectory({
    egress: { a: { source_address: "192.0.2.1", ehlo: "", warmup_start: "" }, b: { source_address: "192.0.2.2", ehlo: "", warmup_start: "" } },
    pools: { default: { sources: ["a"] }, bulk: { sources: ["b"] } },
  }, "mta.test");
  const tenant = { id: 5, name: "t", status: "active" as const, createdAt: 0, pool: "bulk" };
  const none = async () => [];
  await checkTenantEgress({ ipPool: "bulk" }, egress, tenant, none);
  await checkTenantEgress({ sendingIp: "192.0.2.2" }, egress, tenant, none);
  await expect(checkTenantEgress({ ipPool: "default" }, egress, tenant, none)).rejects.toThrow('unknown ip pool "default": the pools are bulk');
  await expect(checkTenantEgress({ sendingIp: "192.0.2.1" }, egress, tenant, none)).rejects.toThrow(/unknown sending ip "192.0.2.1"/);
  // The primary (and mail of no tenant) names any configured pool.
  await checkTenantEgress({ ipPool: "default" }, egress, null, none);
  await checkTenantEgress({ ipPool: "bulk" }, egress, { ...tenant, id: 0 }, none);
  await expect(checkTenantEgress({ ipPool: "nope" }, egress, null, none)).rejects.toThrow(/the pools are default, bulk/);
});

// The notice poster over a real (in-memory) store: a listing goes to the account-wide native
// webhooks of its type and to the listed domain's own, as outbox items of the notice format;
// other types, other domains and check changes post nothing.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { openSqliteStore } from "../../src/store/sqlite/index.ts";
import type { Store, WebhookTarget } from "../../src/core/store-port.ts";
import { createNoticePoster } from "../../src/webhooks/notices.ts";
import { FORMAT } from "../../src/webhooks/registry.ts";

const NOW = 1_800_000_000_000;
let store: Store;
const ids: Record<string, number> = {};
beforeAll(async () => {
  store = await openSqliteStore(":memory:", ["us", "eu"]);
  for (const [name, zone] of [["a.test", "eu"], ["b.test", "us"]] as const) {
    ids[name] = (await store.control.insertDomain({ name, zone, wildcard: false, dkimSelector: "s", keys: [], validation: false, botDetection: false,
      openTracking: false, clickTracking: false, unsubscribeTracking: false, inbound: false, limitMax: 0, limitWindow: "month" }, NOW)).id;
  }
  const hook = (id: string, domainId: number | null, type: string, format: string = FORMAT.mailgun): WebhookTarget =>
    ({ id, domainId, events: [type], url: `http://127.0.0.1:9/${id}`, format, extra: { mailgunId: type }, createdAt: NOW });
  for (const t of [hook("acct-ip", null, "ip_listed"), hook("acct-dom", null, "domain_listed"), hook("a-dom", ids["a.test"]!, "domain_listed"),
    hook("b-dom", ids["b.test"]!, "domain_listed"), hook("acct-delivered", null, "delivered"),
    hook("b-ip", ids["b.test"]!, "ip_listed")]) await store.control.insertWebhook(t);
});
afterAll(async () => { await store.close(); });

const pending = async (zone: string) => (await store.zone(zone).claimWebhooks(NOW + 1, 100, { owner: "t", leaseMs: 1000 }));

test("a domain listing: the account-wide domain_listed webhook and the domain's own, in the domain's zone, signed per target", async () => {
  let woken = 0;
  const poster = createNoticePoster({ store, now: () => NOW, getDomain: store.control.getDomain });
  poster.subscribe({ outboxQueued: () => { woken++; } });
  await poster.doctorChanged({ kind: "blocklist", subject: "email.a.test", to: "listed", at: NOW, zone: "dbl.test", entryKind: "domain", answer: "127.0.1.2", domain: "a.test" });
  const items = await pending("eu");
  expect(items.map((i) => `${i.targetId} ${i.format} ${i.domain}`).sort()).toEqual([`a-dom ${FORMAT.notice} a.test`, `acct-dom ${FORMAT.notice} `]);
  expect(JSON.parse(items[0]!.payload)).toEqual([expect.objectContaining({ event: "domain_listed", subject: "email.a.test", zone: "dbl.test", domain: "a.test" })]);
  expect(woken).toBe(1);
  expect(await pending("us")).toEqual([]);
});

test("an address listing goes to the account-wide ip_listed webhooks and every domain's; a delisting nobody asked for and a check change post nothing", async () => {
  const poster = createNoticePoster({ store, now: () => NOW, getDomain: store.control.getDomain });
  const base = { kind: "blocklist" as const, subject: "192.0.2.1", at: NOW, zone: "bl.test", entryKind: "ip" as const, answer: "127.0.0.2", domain: null, listedIn: ["bl.test"] };
  expect(await poster.post({ event: "ip_delisted", id: "x", timestamp: 1, subject: "192.0.2.1", zone: "bl.test", answer: "" })).toBe(0);
  await poster.doctorChanged({ kind: "check" });
  await poster.doctorChanged({ ...base, to: "listed" });
  expect((await pending("us")).map((i) => `${i.targetId} ${i.domain}`).sort()).toEqual(["acct-ip ", "b-ip b.test"]);
});

test("a tenant's account-wide webhook hears of its own domains only, and never of the installation's addresses", async () => {
  const c = (await store.control.insertDomain({ name: "c.test", zone: "us", wildcard: false, dkimSelector: "s", keys: [], validation: false, botDetection: false,
    openTracking: false, clickTracking: false, unsubscribeTracking: false, inbound: false, limitMax: 0, limitWindow: "month", tenantId: 7 }, NOW)).id;
  expect(c).toBeGreaterThan(0);
  const tenantHook = (id: string, type: string): WebhookTarget =>
    ({ id, domainId: null, tenantId: 7, events: [type], url: `http://127.0.0.1:9/${id}`, format: FORMAT.mailgun, extra: { mailgunId: type }, createdAt: NOW });
  await store.control.insertWebhook(tenantHook("t7-dom", "domain_listed"));
  await store.control.insertWebhook(tenantHook("t7-ip", "ip_listed"));
  // A tenant domain's own ip_listed target (made before such targets were refused) hears no address either.
  await store.control.insertWebhook({ ...tenantHook("t7-c-ip", "ip_listed"), domainId: c });
  const poster = createNoticePoster({ store, now: () => NOW, getDomain: store.control.getDomain });
  const listed = (domain: string) => poster.doctorChanged({ kind: "blocklist", subject: domain, to: "listed", at: NOW, zone: "dbl.test", entryKind: "domain", answer: "127.0.1.2", domain });
  await listed("b.test");
  await listed("c.test");
  await poster.doctorChanged({ kind: "blocklist", subject: "192.0.2.9", to: "listed", at: NOW, zone: "bl.test", entryKind: "ip", answer: "127.0.0.2", domain: null });
  const got = (await pending("us")).map((i) => `${i.targetId} ${JSON.parse(i.payload)[0].subject}`).sort();
  // The primary's (the operator's) account-wide webhooks hear of every domain and address; tenant 7's of c.test alone.
  expect(got.filter((g) => g.startsWith("t7-"))).toEqual(["t7-dom c.test"]);
  expect(got).toContain("b-ip 192.0.2.9");
  expect(got).toContain("acct-dom b.test");
  expect(got).toContain("acct-dom c.test");
  expect(got).toContain("acct-ip 192.0.2.9");
});

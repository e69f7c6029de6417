// The store contract for egress: sends per source per UTC hour (the warm-up caps), shared by the
// nodes of one database, and a domain's pool.
import { expect, test } from "bun:test";
import type { Store } from "../../src/core/store-port.ts";

const NOW = 1_800_000_000_000;
const HOUR = 500_000;
type Open = () => Store | Promise<Store>;

export function egressContract(open: Open, openPeer?: (a: Store) => Store | Promise<Store>) {
  test("egress slots: counted up to the cap per source and hour, shared with the other nodes", async () => {
    const a = await open();
    const b = openPeer ? await openPeer(a) : a;
    const took: boolean[] = [];
    for (let i = 0; i < 3; i++) took.push(await a.control.takeEgressSlot("new", HOUR, 4), await b.control.takeEgressSlot("new", HOUR, 4));
    expect(took.filter(Boolean)).toHaveLength(4);
    expect(took.slice(0, 4)).toEqual([true, true, true, true]);
    expect(await a.control.takeEgressSlot("new", HOUR + 1, 4)).toBe(true);
    expect(await a.control.takeEgressSlot("other", HOUR, 0)).toBe(false);
    expect(await b.control.egressSends(HOUR)).toEqual({ new: 4 });
    if (b !== a) await b.close();
    await a.close();
  });

  test("egress slots taken at once by two nodes: exactly the cap, never one more", async () => {
    const a = await open();
    const b = openPeer ? await openPeer(a) : a;
    // 60 takes in flight together, half through each node's connections, for a cap of 20.
    const took = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).control.takeEgressSlot("busy", HOUR, 20)));
    expect(took.filter(Boolean)).toHaveLength(20);
    expect(await a.control.egressSends(HOUR)).toEqual({ busy: 20 });
    if (b !== a) await b.close();
    await a.close();
  });

  test("egress sends counted in memory are added; hours older than a day are forgotten", async () => {
    const store = await open();
    const c = store.control;
    await c.addEgressSends(HOUR - 30, { warm: 7 });
    await c.addEgressSends(HOUR, { warm: 3, other: 0 });
    await c.addEgressSends(HOUR, { warm: 2, second: 1 });
    expect(await c.egressSends(HOUR)).toEqual({ warm: 5, second: 1 });
    expect(await c.egressSends(HOUR - 30)).toEqual({});
    expect(await c.egressSends(HOUR + 1)).toEqual({});
    await store.close();
  });

  test("a domain's egress pool: empty by default, set and cleared", async () => {
    const store = await open();
    const c = store.control;
    const d = await c.insertDomain({ name: "pool.test", zone: "us", wildcard: false, dkimSelector: "s1", keys: [], validation: false, botDetection: false,
      openTracking: false, clickTracking: false, unsubscribeTracking: false, inbound: false, limitMax: 0, limitWindow: "month" }, NOW);
    expect(d.pool).toBe("");
    expect((await c.updateDomain("pool.test", { pool: "bulk" }, NOW + 1))?.pool).toBe("bulk");
    expect((await c.getDomain("pool.test"))?.pool).toBe("bulk");
    expect((await c.updateDomain("pool.test", { pool: "" }, NOW + 2))?.pool).toBe("");
    await store.close();
  });

  test("an attempt's source address and pool are kept with its outcome and its events; an update without one keeps them", async () => {
    const store = await open();
    const z = store.zone("us");
    const msg = { id: "m1", sendId: "s1", domain: "a.test", messageIdHeader: "<m1@x>", from: "a@a.test", subject: "s", content: "{}", raw: null,
      tags: [], metadata: {}, callbackUrl: null, source: "cli" as const, isTest: false, size: 2, createdAt: NOW };
    const rcpt = { id: "r1", messageId: "m1", email: "b@b.test", rcptDomain: "b.test", kind: "to" as const, status: "queued" as const, attempts: 0,
      nextAttemptAt: NOW, firstAttemptAt: null, expiresAt: NOW + 1e9, lastCode: null, lastResponse: null, mx: null, updatedAt: NOW };
    await z.createSend({ messages: [msg], recipients: [rcpt], attachments: [], events: [] });
    const fresh = await z.getRecipient("r1");
    expect(fresh?.sourceIp ?? null).toBeNull();
    const L = { owner: "n1", leaseMs: 60_000 };
    await z.claimDue(NOW, 10, L);
    const event = { id: "e1", type: "deferred" as const, messageId: "m1", recipient: "b@b.test", domain: "a.test", timestamp: NOW, tags: [], metadata: {},
      sendingIp: "127.0.0.3", ipPool: "bulk" };
    await z.applyOutcomes([{ id: "r1", status: "deferred", attempts: 1, nextAttemptAt: NOW, firstAttemptAt: NOW, lastCode: 451, lastResponse: "later", mx: "mx",
      sourceIp: "127.0.0.3", ipPool: "bulk" }], [event], [], NOW);
    expect(await z.getRecipient("r1")).toMatchObject({ sourceIp: "127.0.0.3", ipPool: "bulk", lastCode: 451 });
    expect((await z.searchEvents({ messageId: "m1", limit: 10 }))[0]).toMatchObject({ sendingIp: "127.0.0.3", ipPool: "bulk" });
    // Claimed rows come back with it; an update that sent nothing (a hold, a wait) keeps it.
    expect(await z.claimDue(NOW + 1, 10, L)).toMatchObject([{ id: "r1", sourceIp: "127.0.0.3", ipPool: "bulk" }]);
    await z.applyOutcomes([{ id: "r1", status: "deferred", attempts: 1, nextAttemptAt: NOW + 5, firstAttemptAt: NOW, lastCode: null, lastResponse: "held", mx: "mx" }], [], [], NOW + 2);
    expect(await z.getRecipient("r1")).toMatchObject({ sourceIp: "127.0.0.3", ipPool: "bulk", lastResponse: "held" });
    // A source in no pool (Mailgun's o:sending-ip): the address, no pool.
    await z.claimDue(NOW + 10, 10, L);
    await z.applyOutcomes([{ id: "r1", status: "delivered", attempts: 2, nextAttemptAt: NOW + 10, firstAttemptAt: NOW, lastCode: 250, lastResponse: "ok", mx: "mx",
      sourceIp: "127.0.0.5", ipPool: null }], [], [], NOW + 10);
    expect(await z.getRecipient("r1")).toMatchObject({ sourceIp: "127.0.0.5", ipPool: null, status: "delivered" });
    await store.close();
  });
}

// The zone half of the store contract: queue claims (two claimers at once), the event log read in
// commit order by a cursor across writers on two nodes, bot results, the one-server lease.
import { expect, test } from "bun:test";
import type { MessageEvent } from "../../src/core/model.ts";
import type { Store, StoredMessage, StoredRecipient, ZoneStore } from "../../src/core/store-port.ts";

const NOW = 1_800_000_000_000;
/** Node n1's claims, a minute long. */
const L = { owner: "n1", leaseMs: 60_000 };
const msg = (id: string): StoredMessage => ({ id, sendId: `s-${id}`, domain: "a.test", messageIdHeader: `<${id}@x>`, from: "a@a.test", subject: "s",
  content: "{}", raw: null, tags: ["t1"], metadata: {}, callbackUrl: null, source: "native", isTest: false, size: 2, createdAt: NOW });
const rcpt = (id: string, messageId: string, domain = "b.test"): StoredRecipient => ({ id, messageId, email: `${id}@${domain}`, rcptDomain: domain,
  kind: "to", status: "queued", attempts: 0, nextAttemptAt: NOW, firstAttemptAt: null, expiresAt: NOW + 1e9, lastCode: null, lastResponse: null, mx: null, updatedAt: NOW });
const ev = (id: string, timestamp = NOW, type: MessageEvent["type"] = "delivered"): MessageEvent => ({ id, type, messageId: "m1", recipient: "r@b.test",
  domain: "a.test", timestamp, tags: ["t1"], metadata: {} });

async function queueOf(z: ZoneStore, n: number) {
  await z.createSend({ messages: [msg("m1")], recipients: Array.from({ length: n }, (_, i) => rcpt(`r${i}`, "m1")), attachments: [], events: [] });
}

type Open = () => Store | Promise<Store>;
type Peer = (a: Store) => Store | Promise<Store>;

/**
 * `open` gives a fresh store; `peer` a second store on the same data (another node), when the
 * engine has one; `leasePeer` a second store the one-server lease must refuse (default: `peer`).
 */
export function zoneContract(open: Open, peer?: Peer, leasePeer: Peer | undefined = peer) {
  test("two claimers at once never get the same recipient", async () => {
    const a = await open();
    const b = peer ? await peer(a) : a;
    await queueOf(a.zone("us"), 10);
    const [x, y] = await Promise.all([a.zone("us").claimDue(NOW, 6, L), b.zone("us").claimDue(NOW, 6, L)]);
    const ids = [...x, ...y].map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(10);
    if (b !== a) await b.close();
    await a.close();
  });

  test("queue reads, retry, outcomes, stats and the next due time", async () => {
    const store = await open();
    const z = store.zone("us");
    await queueOf(z, 3);
    expect((await z.listQueue(10)).length).toBe(3);
    expect(await z.nextDueAt()).toBe(NOW);
    const [first] = await z.claimDue(NOW, 1, L);
    expect(await z.retryNow(first!.id, NOW)).toBe(0); // being attempted: not made due twice
    await z.applyOutcomes([{ id: first!.id, status: "deferred", attempts: 1, nextAttemptAt: NOW + 5_000, firstAttemptAt: NOW, lastCode: 451, lastResponse: "later", mx: "mx" }],
      [ev("d1", NOW, "deferred")], [{ domain: "a.test", type: "bounces", address: "x@b.test", reason: "r", code: "550", scope: null, createdAt: NOW }], NOW);
    expect(await z.retryNow(first!.id, NOW + 1)).toBe(1);
    expect((await z.getRecipient(first!.id))?.nextAttemptAt).toBe(NOW + 1);
    expect(await z.getSuppression("a.test", "bounces", "x@b.test")).not.toBeNull();
    const stats = await z.queueStats(NOW + 1);
    expect([stats.queued, stats.deferred, stats.due]).toEqual([2, 1, 3]);
    expect(stats.byDomain).toEqual([{ domain: "b.test", count: 3 }]);
    await store.close();
  });

  test("queue stats follow each recipient through its outcomes, per status and per pending domain", async () => {
    const store = await open();
    const z = store.zone("us");
    const rs = [rcpt("r0", "m1", "c.test"), rcpt("r1", "m1", "c.test"), rcpt("r2", "m1"), rcpt("r3", "m1"), { ...rcpt("r4", "m1", "d.test"), status: "failed" as const }];
    await z.createSend({ messages: [msg("m1")], recipients: rs, attachments: [], events: [] });
    const out = (id: string, status: "deferred" | "delivered" | "failed") => ({ id, status, attempts: 1, nextAttemptAt: NOW + 5_000, firstAttemptAt: NOW,
      lastCode: 250, lastResponse: "r", mx: "mx" });
    const summary = async () => { const s = await z.queueStats(NOW); return [s.queued, s.deferred, s.delivered, s.failed, s.due, s.byDomain]; };
    // Equal counts: by name.
    expect(await summary()).toEqual([4, 0, 0, 1, 4, [{ domain: "b.test", count: 2 }, { domain: "c.test", count: 2 }]]);
    await z.claimDue(NOW, 5, L); // a claim is no outcome
    await z.applyOutcomes([out("r0", "deferred"), out("r2", "delivered")], [], [], NOW);
    expect(await summary()).toEqual([2, 1, 1, 1, 0, [{ domain: "c.test", count: 2 }, { domain: "b.test", count: 1 }]]);
    await z.applyOutcomes([out("r0", "deferred"), out("r1", "failed"), out("r3", "delivered")], [], [], NOW);
    expect(await summary()).toEqual([0, 1, 2, 2, 0, [{ domain: "c.test", count: 1 }]]);
    await z.applyOutcomes([out("r0", "delivered")], [], [], NOW);
    expect(await summary()).toEqual([0, 0, 3, 2, 0, []]);
    await store.close();
  });

  test("a starting node takes back claims left by a crash", async () => {
    const store = await open();
    const z = store.zone("us");
    await queueOf(z, 2);
    await z.claimDue(NOW, 2, L);
    expect(await z.claimDue(NOW, 2, L)).toEqual([]);
    expect(await z.releaseClaims(NOW, "n1")).toBe(2);
    expect((await z.claimDue(NOW, 5, L)).length).toBe(2);
    await store.close();
  });

  test("the event log is read in commit order, not by id or time, and a cursor never skips", async () => {
    const a = await open();
    const b = peer ? await peer(a) : a;
    const z = a.zone("us");
    expect(await z.cursor("fanout")).toBe(0);
    // Committed first, but with the later time and the larger id.
    await z.applyOutcomes([], [ev("zz", NOW + 10)], [], NOW);
    await z.applyOutcomes([], [ev("aa", NOW)], [], NOW);
    const all = await z.eventsAfter(0, 10);
    expect(all.map((e) => e.event.id)).toEqual(["zz", "aa"]);
    expect(all[0]!.position).toBeLessThan(all[1]!.position);
    expect(await z.enqueueWebhooks([], { name: "fanout", from: 0, to: all[0]!.position })).toBe(true);
    expect(await z.enqueueWebhooks([], { name: "fanout", from: 0, to: all[1]!.position })).toBe(false); // another node moved it first
    expect(await z.cursor("fanout")).toBe(all[0]!.position);
    expect((await z.eventsAfter(await z.cursor("fanout"), 10)).map((e) => e.event.id)).toEqual(["aa"]);
    // Writers on two nodes at once while a reader follows its cursor: each event is seen exactly once.
    const writes = Array.from({ length: 20 }, (_, i) => (i % 2 ? b : a).zone("us").applyOutcomes([], [ev(`c${i}`)], [], NOW));
    const seen: string[] = [];
    let cursor = all[1]!.position;
    const done = Promise.all(writes);
    for (let round = 0; round < 200 && seen.length < 20; round++) {
      for (const e of await z.eventsAfter(cursor, 7)) { seen.push(e.event.id); cursor = e.position; }
      await Bun.sleep(1);
    }
    await done;
    for (const e of await z.eventsAfter(cursor, 100)) seen.push(e.event.id);
    expect(seen.sort()).toEqual(Array.from({ length: 20 }, (_, i) => `c${i}`).sort());
    if (b !== a) await b.close();
    await a.close();
  });

  test("events are searched and counted per hour; tags are listed and described", async () => {
    const store = await open();
    const z = store.zone("us");
    await z.createSend({ messages: [msg("m1")], recipients: [rcpt("r1", "m1")], attachments: [], events: [ev("e1", NOW, "accepted"), ev("e2", NOW + 1)] });
    expect((await z.searchEvents({ domain: "a.test", types: ["delivered"], limit: 10 })).map((e) => e.id)).toEqual(["e2"]);
    const counts = await z.countEvents({ domain: "a.test", begin: NOW - 1, end: NOW + 10 });
    expect(counts.reduce((n, c) => n + c.count, 0)).toBe(2);
    await z.putTagInfo("a.test", "t1", { description: "first tag" });
    expect((await z.listTags("a.test")).find((t) => t.tag === "t1")?.description).toBe("first tag");
    await store.close();
  });

  test("outbox expiry can keep to some formats or leave some out", async () => {
    const store = await open();
    const z = store.zone("us");
    const item = (id: string, format: string) => ({ id, url: `http://127.0.0.1:9/${format}`, format, targetId: null, domain: "a.test", payload: "[]",
      attempts: 0, nextAttemptAt: NOW, status: "pending" as const, lastError: null, createdAt: NOW });
    await z.enqueueOutbox([item("o1", "sendgrid-parse"), item("o2", "mailgun-route"), item("o3", "mailgun")]);
    expect((await z.expireWebhooks(NOW + 10, NOW + 1, { only: ["mailgun-route"] })).map((g) => [g.url, g.count])).toEqual([["http://127.0.0.1:9/mailgun-route", 1]]);
    expect((await z.expireWebhooks(NOW + 10, NOW + 1, { except: ["sendgrid-parse"] })).map((g) => g.url)).toEqual(["http://127.0.0.1:9/mailgun"]);
    expect((await z.webhookStats()).find((s) => s.status === "pending")?.count).toBe(1);
    expect((await z.expireWebhooks(NOW + 10, NOW + 1)).map((g) => g.url)).toEqual(["http://127.0.0.1:9/sendgrid-parse"]);
    await store.close();
  });

  test("bot results are kept by domain and request id", async () => {
    const store = await open();
    const z = store.zone("us");
    await z.putBotResult({ domain: "a.test", requestId: "q1", body: "{}", createdAt: NOW }, NOW - 1000);
    expect(await z.getBotResult("a.test", "q1")).toEqual({ body: "{}", createdAt: NOW });
    expect(await z.getBotResult("a.test", "q2")).toBeNull();
    await store.close();
  });

  test("one node holds the lease at a time", async () => {
    const a = await open();
    const b = leasePeer ? await leasePeer(a) : a;
    const lease = await a.takeLease("n1");
    await expect(b.takeLease("n1")).rejects.toThrow();
    await lease.release();
    const again = await b.takeLease("n1");
    await again.release();
    if (b !== a) await b.close();
    await a.close();
  });
}

// The store contract for the webhook outbox: items claimed with a lease (two claimers at once
// never share one), at most a few per URL, probed, made due, finished, expired, counted and read
// back per message; and a starting node taking back its claims.
import { expect, test } from "bun:test";
import type { OutboxItem, Store } from "../../src/core/store-port.ts";

const NOW = 1_800_000_000_000;
/** Node n1's claims, a minute long. */
const L = { owner: "n1", leaseMs: 60_000 };
type Open = () => Store | Promise<Store>;
type Peer = (a: Store) => Store | Promise<Store>;

const item = (id: string, url: string, at = NOW, messageId = "m1"): OutboxItem => ({ id, url, format: "mailgun", targetId: "t1", domain: "a.test",
  payload: JSON.stringify([{ messageId, type: "delivered" }]), attempts: 0, nextAttemptAt: at, status: "pending", lastError: null, createdAt: at });

export function outboxContract(open: Open, peer?: Peer) {
  test("outbox items are claimed once with a lease, at most perUrl per URL, none of skipUrls; finished items are done", async () => {
    const a = await open();
    const b = peer ? await peer(a) : a;
    const z = a.zone("us");
    await z.enqueueOutbox([item("o1", "https://x.test/1"), item("o2", "https://x.test/1", NOW + 1), item("o3", "https://x.test/1", NOW + 2),
      item("o4", "https://y.test/1", NOW + 3), item("o5", "https://z.test/1", NOW + 4)]);
    expect(await z.nextWebhookDueAt()).toBe(NOW);
    const [x, y] = await Promise.all([z.claimWebhooks(NOW + 10, 2, L, { perUrl: 2 }), b.zone("us").claimWebhooks(NOW + 10, 2, L, { perUrl: 2 })]);
    const ids = [...x, ...y].map((i) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(4);
    for (const claim of [x, y]) expect(claim.filter((i) => i.url === "https://x.test/1").length).toBeLessThanOrEqual(2);
    expect(await z.claimWebhooks(NOW + 10, 10, L, { perUrl: 2 })).toHaveLength(1); // the last unclaimed one
    expect(await z.claimWebhooks(NOW + 10, 10, L)).toEqual([]);
    await z.finishWebhook("o1", "delivered", 1, NOW + 10, null, NOW + 10);
    await z.finishWebhook("o4", "rejected", 1, NOW + 10, "410 gone", NOW + 10);
    expect(await z.webhookStats()).toEqual(expect.arrayContaining([{ status: "delivered", count: 1 }, { status: "rejected", count: 1 }, { status: "pending", count: 3 }]));
    // A lease that ran out makes an unfinished item claimable again.
    const later = (await z.claimWebhooks(NOW + 70_000, 10, L, { skipUrls: ["https://z.test/1"] })).map((i) => i.id).sort();
    expect(later).toEqual(["o2", "o3"]);
    expect((await z.claimWebhooks(NOW + 70_000, 10, L)).map((i) => i.id)).toEqual(["o5"]);
    if (b !== a) await b.close();
    await a.close();
  });

  test("cursor and items are written together; the probe takes a failed target's earliest item; due-now and release", async () => {
    const store = await open();
    const z = store.zone("us");
    await z.enqueueWebhooks([item("p1", "https://down.test/", NOW + 5_000), item("p2", "https://down.test/", NOW + 9_000)], { name: "fanout", from: 0, to: 7 });
    expect(await z.cursor("fanout")).toBe(7);
    const probe = await z.claimWebhookProbe("https://down.test/", NOW, L);
    expect(probe?.id).toBe("p1");
    expect(await z.claimWebhookProbe("https://nothing.test/", NOW, L)).toBeNull();
    expect(await z.webhooksDueNow("https://down.test/", NOW)).toBe(1); // p2; p1 is claimed
    expect((await z.claimWebhooks(NOW, 10, L)).map((i) => i.id)).toEqual(["p2"]);
    expect(await z.releaseWebhookClaims(NOW + 1, "n1")).toBe(2);
    expect((await z.claimWebhooks(NOW + 1, 10, L)).map((i) => i.id).sort()).toEqual(["p1", "p2"]);
    await store.close();
  });

  test("unclaimed pending items past their lifetime expire, counted per URL; posts are read back per message", async () => {
    const store = await open();
    const z = store.zone("us");
    await z.enqueueOutbox([item("e1", "https://a.test/", NOW, "m1"), item("e2", "https://a.test/", NOW + 1, "m2"), item("e3", "https://b.test/", NOW + 2, "m1"),
      item("e4", "https://b.test/", NOW + 1_000_000, "m1")]);
    await z.finishWebhook("e1", "pending", 1, NOW + 10, "503", NOW);
    await z.claimWebhooks(NOW + 2, 1, L, { skipUrls: ["https://a.test/"] }); // e3 is in flight: not expired under it
    expect(await z.expireWebhooks(NOW + 500, NOW + 100)).toEqual([{ url: "https://a.test/", count: 2, lastError: "503" }]);
    expect((await z.webhookPostsFor("a.test", "m1", 10)).map((p) => [p.id, p.status])).toEqual([["e1", "expired"], ["e3", "pending"], ["e4", "pending"]]);
    expect((await z.webhookPostsFor("a.test", "m1", 10))[0]!.lastError).toBe("503");
    expect(await z.webhookPostsFor("other.test", "m1", 10)).toEqual([]);
    await store.close();
  });
}

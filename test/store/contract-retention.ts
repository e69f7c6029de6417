// The store contract for retention: events and finished messages older than a window go in
// bounded batches, with their recipients, events and attachments; what is not done or not old
// stays; suppressions never go; counts of deleted events stay readable through countEvents and,
// for the vendor stats, through statRollups.
import { expect, test } from "bun:test";
import type { MessageEvent } from "../../src/core/model.ts";
import type { Store } from "../../src/core/store-port.ts";
import { newId } from "../../src/core/ids.ts";
import { foldStats } from "../../src/core/stats/rollup.ts";

const NOW = 1_800_000_000_000;
const HOUR = 3_600_000;
type Open = () => Store | Promise<Store>;

/** A message sent at `at` with one recipient in `status` (its outcome at `doneAt`) and an accepted event. */
function send(at: number, status: "queued" | "delivered" | "failed", doneAt = at, tags = ["t1"], sendId = newId(at)) {
  const id = newId(at);
  const rid = newId(at);
  const event = (type: MessageEvent["type"], ts: number, extra: Partial<MessageEvent> = {}): MessageEvent =>
    ({ id: newId(ts), type, messageId: id, recipient: "b@b.test", domain: "a.test", timestamp: ts, tags, metadata: {}, ...extra });
  return {
    id, rid, sendId, event,
    rows: { messages: [{ id, sendId, domain: "a.test", messageIdHeader: `<${id}@x>`, from: "a@a.test", subject: "s", content: "{}", raw: null,
      tags, metadata: {}, callbackUrl: null, source: "native", isTest: false, size: 2, createdAt: at }],
    recipients: [{ id: rid, messageId: id, email: "b@b.test", rcptDomain: "b.test", kind: "to" as const, status: "queued" as const, attempts: 0,
      nextAttemptAt: at, firstAttemptAt: null, expiresAt: at + 1e9, lastCode: null, lastResponse: null, mx: null, updatedAt: at }],
    attachments: [{ sendId, idx: 0, filename: "a.txt", contentType: "text/plain", contentId: null, disposition: "attachment" as const, data: new Uint8Array([1]) }],
    events: [event("accepted", at)] },
    async finish(z: ReturnType<Store["zone"]>) {
      if (status === "queued") return;
      await z.applyOutcomes([{ id: rid, status, attempts: 1, nextAttemptAt: doneAt, firstAttemptAt: doneAt, lastCode: 250, lastResponse: "ok", mx: "mx" }],
        [event(status, doneAt)], [], doneAt);
    },
  };
}

/** Sweeps until nothing more goes; returns the total. */
async function sweepAll(z: ReturnType<Store["zone"]>, before: number, limit: number) {
  let total = 0;
  let after = "";
  for (let i = 0; i < 100; i++) {
    const r = await z.sweepMessages(before, limit, after, foldStats);
    total += r.deleted;
    if (r.next === null) return total;
    after = r.next;
  }
  throw new Error("the message scan did not end");
}

export function retentionContract(open: Open) {
  test("retention: finished messages older than the window go with recipients, events and attachments, in bounded batches", async () => {
    const store = await open();
    const z = store.zone("us");
    const old = [send(NOW, "delivered", NOW + 1000), send(NOW + 10, "failed", NOW + 2000), send(NOW + 20, "delivered", NOW + 3000)];
    const waiting = send(NOW + 30, "queued");
    const lateOutcome = send(NOW + 40, "delivered", NOW + 2 * HOUR);
    const young = send(NOW + HOUR, "delivered", NOW + HOUR + 5);
    for (const m of [...old, waiting, lateOutcome, young]) { await z.createSend(m.rows); await m.finish(z); }
    await z.addSuppressions([{ domain: "a.test", type: "bounces", address: "b@b.test", reason: "r", code: "550", scope: null, createdAt: NOW }]);
    const before = NOW + HOUR - 1;
    // A batch of 2 looks at two messages: the scan goes on from the last one it looked at.
    const first = await z.sweepMessages(before, 2, "", foldStats);
    expect(first).toEqual({ deleted: 2, next: old[1]!.id });
    expect(await sweepAll(z, before, 2)).toBe(1);
    for (const m of old) {
      expect(await z.getMessage(m.id)).toBeNull();
      expect(await z.getRecipient(m.rid)).toBeNull();
      expect(await z.searchEvents({ messageId: m.id, limit: 10 })).toEqual([]);
      expect(await z.getAttachments(m.sendId)).toEqual([]);
    }
    // Not finished, finished after the cut, or sent after it: kept.
    for (const m of [waiting, lateOutcome, young]) expect((await z.getMessage(m.id))?.id).toBe(m.id);
    expect((await z.getAttachments(waiting.sendId)).length).toBe(1);
    expect(await z.getSuppression("a.test", "bounces", "b@b.test")).not.toBeNull();
    // Counts of what went stay: 3 accepted, 2 delivered, 1 failed in the first hour (and by tag).
    const counts = async (tag?: string) => Object.fromEntries((await z.countEvents({ domain: "a.test", begin: NOW, end: NOW + HOUR - 1, ...(tag && { tag }) }))
      .map((c) => [c.type, c.count]));
    expect(await counts()).toEqual({ accepted: 5, delivered: 2, failed: 1 });
    expect(await counts("t1")).toEqual({ accepted: 5, delivered: 2, failed: 1 });
    expect(await counts("other")).toEqual({});
    await store.close();
  });

  test("retention: events older than the window go in bounded batches, and their counts stay (bots left out, per tag)", async () => {
    const store = await open();
    const z = store.zone("us");
    const m = send(NOW, "queued", NOW, ["t1", "t2"]);
    await z.createSend(m.rows);
    const human = [m.event("opened", NOW + 1), m.event("opened", NOW + 2), m.event("clicked", NOW + HOUR + 3)];
    const bot = m.event("opened", NOW + 4, { isBot: true });
    const recent = m.event("opened", NOW + 5 * HOUR);
    await z.applyOutcomes([], [...human, bot, recent], [], NOW);
    const read = async (q: { begin: number; end: number; tag?: string }) =>
      (await z.countEvents({ domain: "a.test", ...q })).map((c) => `${c.type}@${(c.bucket - NOW) / HOUR}:${c.count}`).sort();
    const live = await read({ begin: NOW, end: NOW + 10 * HOUR });
    expect(await z.sweepEvents(NOW + 2 * HOUR, 3, foldStats)).toBe(3);
    expect(await z.sweepEvents(NOW + 2 * HOUR, 3, foldStats)).toBe(2);
    expect(await z.sweepEvents(NOW + 2 * HOUR, 3, foldStats)).toBe(0);
    expect((await z.searchEvents({ domain: "a.test", limit: 10 })).map((e) => e.id)).toEqual([recent.id]);
    expect(await read({ begin: NOW, end: NOW + 10 * HOUR })).toEqual(live);
    expect(await read({ begin: NOW, end: NOW + 10 * HOUR })).toEqual(["accepted@0:1", "clicked@1:1", "opened@0:2", "opened@5:1"]);
    expect(await read({ begin: NOW, end: NOW + 10 * HOUR, tag: "t2" })).toEqual(live);
    expect(await read({ begin: NOW + 2 * HOUR, end: NOW + 10 * HOUR })).toEqual(["opened@5:1"]);
    expect(await store.zone("eu").countEvents({ begin: NOW, end: NOW + 10 * HOUR })).toEqual([]);
    await store.close();
  });

  test("retention: finished webhook posts made before the window go in bounded batches; pending ones stay", async () => {
    const store = await open();
    const z = store.zone("us");
    const post = (at: number, status: "pending" | "delivered" | "expired") => ({ id: newId(at), url: "https://hook.test/", format: "native", targetId: null,
      domain: "a.test", payload: "[]", attempts: 1, nextAttemptAt: at, status, lastError: null, createdAt: at });
    const posts = [post(NOW, "delivered"), post(NOW + 1, "expired"), post(NOW + 2, "pending"), post(NOW + 3, "delivered"), post(NOW + HOUR, "delivered")];
    await z.enqueueOutbox(posts.map((p) => ({ ...p, status: "pending" as const })));
    for (const p of posts) if (p.status !== "pending") await z.finishWebhook(p.id, p.status, 1, NOW, null, NOW);
    expect(await z.sweepOutbox(NOW + 10, 2)).toBe(2);
    expect(await z.sweepOutbox(NOW + 10, 2)).toBe(1);
    expect(await z.sweepOutbox(NOW + 10, 2)).toBe(0);
    expect((await z.webhookStats()).map((s) => [s.status, s.count]).sort()).toEqual([["delivered", 1], ["pending", 1]]);
    await store.close();
  });

  test("retention: deleted events fold into stat rollups (key, dimensions, bytes; per tag), read by hour, tag and domain", async () => {
    const store = await open();
    const z = store.zone("us");
    const m = send(NOW, "delivered", NOW + 1, ["t1", "t2"]);
    m.rows.messages[0] = { ...m.rows.messages[0]!, size: 700, extra: { campaignId: "spring", ipPool: "warm" } } as never;
    await z.createSend(m.rows);
    await m.finish(z);
    const opens = [m.event("opened", NOW + 2, { firsts: ["once", "human", "engaged", "human-engaged"] }), m.event("opened", NOW + 3, { firsts: [] }),
      m.event("opened", NOW + HOUR + 4, { isBot: true, firsts: [] })];
    await z.applyOutcomes([], opens, [], NOW);
    expect(await z.sweepEvents(NOW + 2 * HOUR, 3, foldStats)).toBe(3);
    expect(await z.sweepEvents(NOW + 2 * HOUR, 3, foldStats)).toBe(2);
    const show = (rows: Awaited<ReturnType<typeof z.statRollups>>) =>
      rows.map((r) => `${(r.bucket - NOW) / HOUR} ${r.domain} ${r.tag || "-"} ${r.rcptDomain || "-"} ${r.campaign || "-"} ${r.template || "-"} ${r.ipPool || "-"} ${r.stat} ${r.n} ${r.bytes}`).sort();
    expect(show(await z.statRollups({ begin: NOW, end: NOW + 10 * HOUR }))).toEqual([
      "0 a.test - b.test spring - warm accepted 1 0", "0 a.test - b.test spring - warm delivered 1 700",
      "0 a.test - b.test spring - warm opened;firsts= 1 0", "0 a.test - b.test spring - warm opened;firsts=once+human+engaged+human-engaged 1 0",
      "1 a.test - b.test spring - warm opened;bot;firsts= 1 0"]);
    expect(show(await z.statRollups({ domain: "a.test", begin: NOW + 30 * 60_000, end: NOW + 10 * HOUR, tags: ["t2"] }))).toEqual([
      "0 a.test t2 - - - - accepted 1 0", "0 a.test t2 - - - - delivered 1 0", "0 a.test t2 - - - - opened;firsts= 1 0",
      "0 a.test t2 - - - - opened;firsts=once+human+engaged+human-engaged 1 0", "1 a.test t2 - - - - opened;bot;firsts= 1 0"]);
    expect((await z.statRollups({ begin: NOW, end: NOW + 10 * HOUR, tags: "*" })).map((r) => r.tag).sort()).toEqual([...Array(5).fill("t1"), ...Array(5).fill("t2")]);
    expect(await z.statRollups({ begin: NOW + HOUR + 1, end: NOW + 10 * HOUR, tags: ["t1"] })).toHaveLength(1);
    expect(await z.statRollups({ domain: "other.test", begin: NOW, end: NOW + 10 * HOUR })).toEqual([]);
    // A message swept whole folds its events the same way, its size counted once per delivery.
    const done = send(NOW + 3 * HOUR, "delivered", NOW + 3 * HOUR + 1);
    done.rows.messages[0] = { ...done.rows.messages[0]!, size: 50 };
    await z.createSend(done.rows);
    await done.finish(z);
    expect(await sweepAll(z, NOW + 4 * HOUR, 10)).toBe(2);
    expect(show(await z.statRollups({ begin: NOW + 3 * HOUR, end: NOW + 10 * HOUR }))).toEqual(["3 a.test - b.test - - - accepted 1 0", "3 a.test - b.test - - - delivered 1 50"]);
    await store.close();
  });
}

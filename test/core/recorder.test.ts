// The recorder against a real (in-memory SQLite) store: outcomes, events and the suppressions they
// imply land together or not at all, and subscribers hear only about what is on disk.
import { describe, expect, test } from "bun:test";
import { openSqliteStore } from "../../src/store/sqlite/index.ts";
import { createRecorder, type Recorded } from "../../src/core/recorder.ts";
import type { MessageEvent } from "../../src/core/model.ts";
import type { StoredMessage, StoredRecipient } from "../../src/core/store-port.ts";

const NOW = 1_800_000_000_000;
const message: StoredMessage = { id: "m1", sendId: "s1", domain: "a.test", messageIdHeader: "<m1@x>", from: "a@a.test", subject: "s",
  content: "{}", raw: null, tags: [], metadata: {}, callbackUrl: null, source: "native", isTest: false, size: 2, createdAt: NOW };
const rcpt = (id: string, status: StoredRecipient["status"] = "queued"): StoredRecipient => ({ id, messageId: "m1", email: `${id}@b.test`,
  rcptDomain: "b.test", kind: "to", status, attempts: 0, nextAttemptAt: NOW, firstAttemptAt: null, expiresAt: NOW + 1e9, lastCode: null,
  lastResponse: null, mx: null, updatedAt: NOW });
const event = (id: string, type: MessageEvent["type"], recipient: string, extra: Partial<MessageEvent> = {}): MessageEvent => ({
  id, type, messageId: "m1", recipient, recipientId: recipient.split("@")[0], domain: "a.test", timestamp: NOW, tags: [], metadata: {}, ...extra });

async function setup() {
  const store = openSqliteStore(":memory:", ["us"]);
  const recorder = createRecorder({ store, now: () => NOW });
  const heard: Recorded[] = [];
  recorder.subscribe({ recorded: (r) => heard.push(r) });
  await recorder.accept("us", { messages: [message], recipients: [rcpt("r1"), rcpt("r2")], attachments: [], events: [event("a1", "accepted", "r1@b.test")] });
  return { store, zone: store.zone("us"), recorder, heard };
}

describe("recorder", () => {
  test("accepting a send writes it and tells subscribers that mail is queued", async () => {
    const { store, zone, heard } = await setup();
    expect((await zone.listRecipients("m1")).map((r) => r.status)).toEqual(["queued", "queued"]);
    expect(heard).toEqual([{ zone: "us", events: [expect.objectContaining({ id: "a1" })], queued: true, messages: [expect.objectContaining({ id: "m1" })] }]);
    store.close();
  });

  test("a permanent refusal writes the outcome, its event and the bounce together", async () => {
    const { store, zone, recorder, heard } = await setup();
    await recorder.record("us", {
      updates: [{ id: "r1", status: "failed", attempts: 1, nextAttemptAt: NOW, firstAttemptAt: NOW, lastCode: 550, lastResponse: "no such user", mx: "mx" }],
      events: [event("f1", "failed", "R1@b.test", { severity: "permanent", code: 550, description: "no such user" })],
    });
    expect((await zone.getRecipient("r1"))?.status).toBe("failed");
    expect((await zone.searchEvents({ messageId: "m1", types: ["failed"], limit: 10 })).map((e) => e.id)).toEqual(["f1"]);
    expect(await zone.getSuppression("a.test", "bounces", "r1@b.test")).toMatchObject({ code: "550", reason: "no such user" });
    expect(heard.at(-1)).toEqual({ zone: "us", events: [expect.objectContaining({ id: "f1" })], queued: false });
    store.close();
  });

  test("an unsubscribe writes its event and its suppression in one call", async () => {
    const { store, zone, recorder } = await setup();
    await recorder.record("us", { events: [event("u1", "unsubscribed", "r2@b.test", { url: "list-unsubscribe" })] });
    expect(await zone.getSuppression("a.test", "unsubscribes", "r2@b.test")).toMatchObject({ reason: "one-click unsubscribe (RFC 8058)" });
    expect((await zone.searchEvents({ messageId: "m1", types: ["unsubscribed"], limit: 10 })).length).toBe(1);
    store.close();
  });

  test("a write that fails part-way leaves nothing behind and tells no one", async () => {
    const { store, zone, recorder, heard } = await setup();
    // A BigInt cannot be serialised: the second event's insert throws inside the transaction,
    // after the update and the first event were written.
    const bad = event("f2", "failed", "r2@b.test", { severity: "permanent", code: 550, metadata: { n: 1n } as never });
    const write = recorder.record("us", {
      updates: [{ id: "r2", status: "failed", attempts: 1, nextAttemptAt: NOW, firstAttemptAt: NOW, lastCode: 550, lastResponse: "x", mx: null }],
      events: [event("c1", "complained", "r1@b.test"), bad],
    });
    await expect(write).rejects.toThrow();
    expect((await zone.getRecipient("r2"))?.status).toBe("queued");
    expect((await zone.searchEvents({ messageId: "m1", types: ["complained", "failed"], limit: 10 })).length).toBe(0);
    expect(await zone.getSuppression("a.test", "complaints", "r1@b.test")).toBeNull();
    expect(heard.length).toBe(1);
    store.close();
  });

  test("a purge fails waiting rows, records their events and wakes the webhook pipeline", async () => {
    const { store, zone, recorder, heard } = await setup();
    const n = await recorder.purge("us", (rows) => rows.map((r) => event(`p-${r.id}`, "failed", r.email, { severity: "permanent", description: "purged" })));
    expect(n).toBe(2);
    expect((await zone.searchEvents({ messageId: "m1", types: ["failed"], limit: 10 })).length).toBe(2);
    expect(await zone.listSuppressions({ domain: "a.test", limit: 10 })).toEqual([]);
    expect(heard.at(-1)?.events.length).toBe(2);
    store.close();
  });

  test("repeated soft bounces suppress at the configured limit within the window, blocks never", async () => {
    const store = openSqliteStore(":memory:", ["us"]);
    let now = NOW;
    const recorder = createRecorder({ store, now: () => now, softBounces: { limit: 3, windowMs: 86_400_000 } });
    const zone = store.zone("us");
    const full = (id: string) => event(id, "failed", "r1@b.test", { severity: "permanent", code: 552, enhancedCode: "5.2.2", description: "over quota", bounceClass: 22, timestamp: now });
    const block = (id: string) => event(id, "failed", "r2@b.test", { severity: "permanent", code: 554, description: "spam", bounceClass: 52, timestamp: now });
    await recorder.record("us", { events: [full("s1"), block("b1")] });
    now += 3_600_000;
    await recorder.record("us", { events: [full("s2"), block("b2")] });
    expect(await zone.getSuppression("a.test", "bounces", "r1@b.test")).toBeNull();
    now += 3_600_000;
    await recorder.record("us", { events: [full("s3"), block("b3"), block("b4")] });
    expect(await zone.getSuppression("a.test", "bounces", "r1@b.test")).toMatchObject({ reason: "repeated soft bounces (3): over quota" });
    expect(await zone.getSuppression("a.test", "bounces", "r2@b.test")).toBeNull();
    store.close();
  });
});

// The queue by destination key (#29) in the store contract: keys with waiting mail and their first
// due time, a claim per key that takes only due rows of the keys asked for (parked rows and other
// keys untouched), two nodes never claiming the same row, and the destinations' published state.
import { expect, test } from "bun:test";
import type { Store, StoredMessage, StoredRecipient, ZoneStore } from "../../src/core/store-port.ts";
import type { DestinationSnapshot } from "../../src/core/destination-store.ts";

const NOW = 1_800_000_000_000;
const N1 = { owner: "n1", leaseMs: 60_000 };
const N2 = { owner: "n2", leaseMs: 60_000 };
const msg: StoredMessage = { id: "m1", sendId: "s1", domain: "a.test", messageIdHeader: "<m1@x>", from: "a@a.test", subject: "s",
  content: "{}", raw: null, tags: [], metadata: {}, callbackUrl: null, source: "native", isTest: false, size: 2, createdAt: NOW };
const rcpt = (id: string, domain: string, at = NOW): StoredRecipient => ({ id, messageId: "m1", email: `${id}@${domain}`, rcptDomain: domain,
  kind: "to", status: "queued", attempts: 0, nextAttemptAt: at, firstAttemptAt: null, expiresAt: NOW + 1e9, lastCode: null, lastResponse: null,
  mx: null, updatedAt: NOW });
const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();
const snap = (name: string, inFlight: number): DestinationSnapshot => ({ name, provider: name === "gmail" ? "gmail" : null, keys: [`${name}.test`],
  inFlight, concurrency: 5, maxConcurrency: 20, suspendedUntil: null, throttledUntil: null, lastThrottle: null, lastThrottleAt: null });

type Open = () => Store | Promise<Store>;
type Peer = (a: Store) => Store | Promise<Store>;

async function fill(z: ZoneStore) {
  const rows = [
    ...Array.from({ length: 30 }, (_, i) => rcpt(`g${i}`, "gmail.test", NOW - 1000 + i)),
    ...Array.from({ length: 20 }, (_, i) => rcpt(`p${i}`, "gmail.test", NOW + 48 * 3_600_000)), // parked (send_at)
    rcpt("o0", "other.test", NOW + 5), rcpt("o1", "other.test", NOW + 10),
    rcpt("l0", "later.test", NOW + 60_000),
  ];
  await z.createSend({ messages: [msg], recipients: rows, attachments: [], events: [] });
}

export function destinationsContract(open: Open, peer?: Peer) {
  test("waiting keys carry their first due time; a claim takes due rows of the keys asked for, never parked ones", async () => {
    const s = await open();
    const z = s.zone("us");
    await fill(z);
    const keys = (await z.waitingKeys()).sort((a, b) => a.key.localeCompare(b.key));
    expect(keys).toEqual([{ key: "gmail.test", nextDueAt: NOW - 1000 }, { key: "later.test", nextDueAt: NOW + 60_000 }, { key: "other.test", nextDueAt: NOW + 5 }]);
    expect((await z.waitingByKey()).find((k) => k.key === "gmail.test")).toEqual({ key: "gmail.test", count: 50 });
    // gmail's destination is full: only other.test is asked for, and its due rows come although 30 gmail rows are due before them.
    expect(ids(await z.claimKeys(NOW + 10, N1, [{ key: "other.test", limit: 5 }]))).toEqual(["o0", "o1"]);
    const g = await z.claimKeys(NOW + 10, N1, [{ key: "gmail.test", limit: 100 }, { key: "later.test", limit: 5 }]);
    expect(g.length).toBe(30); // the 20 parked rows stay, later.test is not due
    expect(g.every((r) => r.rcptDomain === "gmail.test" && r.id.startsWith("g"))).toBe(true);
    expect(g.map((r) => r.nextAttemptAt)).toEqual(g.map((r) => r.nextAttemptAt).sort((a, b) => a - b));
    expect(await z.claimKeys(NOW + 20, N1, [{ key: "gmail.test", limit: 100 }, { key: "other.test", limit: 0 }])).toEqual([]);
    // Claimed rows wait for their lease; the parked ones are the key's next due.
    expect((await z.waitingKeys()).find((k) => k.key === "gmail.test")!.nextDueAt).toBe(NOW + 10 + 60_000);
    await s.close();
  });

  test("a claim's `newest` rows are the key's most recently due, the rest its longest due; a row is taken once", async () => {
    const s = await open();
    const z = s.zone("us");
    await fill(z); // g0..g29 due from NOW - 1000 on, in order
    const both = await z.claimKeys(NOW, N1, [{ key: "gmail.test", limit: 6, newest: 2 }]);
    expect(ids(both)).toEqual(["g0", "g1", "g2", "g28", "g29", "g3"]);
    expect(both.map((r) => r.nextAttemptAt)).toEqual(both.map((r) => r.nextAttemptAt).sort((a, b) => a - b));
    // 24 due left, 30 asked, 20 of them newest: the two ends meet and each row comes once.
    const rest = await z.claimKeys(NOW, N1, [{ key: "gmail.test", limit: 30, newest: 20 }]);
    expect(rest.length).toBe(24);
    expect(new Set(ids(rest)).size).toBe(24);
    expect(ids([...both, ...rest]).length).toBe(30);
    await s.close();
  });

  test("two nodes claiming the same key never take the same row", async () => {
    const a0 = await open();
    const b0 = peer ? await peer(a0) : a0;
    const [a, b] = [a0.zone("us"), b0.zone("us")];
    await fill(a);
    const [x, y] = await Promise.all([a.claimKeys(NOW, N1, [{ key: "gmail.test", limit: 20 }]), b.claimKeys(NOW, N2, [{ key: "gmail.test", limit: 20 }])]);
    expect(x.length + y.length).toBe(30);
    expect(new Set([...ids(x), ...ids(y)]).size).toBe(30);
    if (b0 !== a0) await b0.close();
    await a0.close();
  });

  test("each node publishes its destinations' state, replacing what it published before", async () => {
    const s = await open();
    const z = s.zone("us");
    await z.publishDestinations("n1", NOW, [snap("gmail", 3), snap("mx.other.test", 1)]);
    await z.publishDestinations("n2", NOW + 1, [snap("gmail", 2)]);
    await z.publishDestinations("n1", NOW + 2, [snap("gmail", 4)]);
    const all = await z.publishedDestinations();
    expect(all.map((d) => [d.owner, d.snapshot.name, d.snapshot.inFlight, d.updatedAt]).sort()).toEqual([["n1", "gmail", 4, NOW + 2], ["n2", "gmail", 2, NOW + 1]]);
    expect(all.find((d) => d.owner === "n1")!.snapshot).toEqual(snap("gmail", 4));
    await s.close();
  });
}

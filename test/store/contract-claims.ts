// The claims half of the store contract: queue and outbox claims carry an owner (a node id) and a
// lease; the owner renews, another node takes over once the lease ends, a restarting node takes its
// own claims back at once and no one else's; the node registry. Run on two stores of the same data
// (two nodes) when the engine has a peer.
import { expect, test } from "bun:test";
import type { OutboxItem, Store, StoredMessage, StoredRecipient, ZoneStore } from "../../src/core/store-port.ts";

const NOW = 1_800_000_000_000;
const N1 = { owner: "n1", leaseMs: 60_000 };
const N2 = { owner: "n2", leaseMs: 60_000 };
const msg: StoredMessage = { id: "m1", sendId: "s1", domain: "a.test", messageIdHeader: "<m1@x>", from: "a@a.test", subject: "s",
  content: "{}", raw: null, tags: [], metadata: {}, callbackUrl: null, source: "native", isTest: false, size: 2, createdAt: NOW };
const rcpt = (id: string): StoredRecipient => ({ id, messageId: "m1", email: `${id}@b.test`, rcptDomain: "b.test", kind: "to", status: "queued",
  attempts: 0, nextAttemptAt: NOW, firstAttemptAt: null, expiresAt: NOW + 1e9, lastCode: null, lastResponse: null, mx: null, updatedAt: NOW });
const item = (id: string, url = "http://127.0.0.1:9/hook"): OutboxItem => ({ id, url, format: "native", targetId: null, domain: "a.test", payload: "[]",
  attempts: 0, nextAttemptAt: NOW, status: "pending", lastError: null, createdAt: NOW });
const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();

type Open = () => Store | Promise<Store>;
type Peer = (a: Store) => Store | Promise<Store>;

async function twoNodes(open: Open, peer?: Peer) {
  const a = await open();
  const b = peer ? await peer(a) : a;
  return { a: a.zone("us"), b: b.zone("us"), a0: a, close: async () => { if (b !== a) await b.close(); await a.close(); } };
}

async function queueOf(z: ZoneStore, n: number) {
  await z.createSend({ messages: [msg], recipients: Array.from({ length: n }, (_, i) => rcpt(`r${i}`)), attachments: [], events: [] });
}

export function claimsContract(open: Open, peer?: Peer) {
  test("a recipient's claim has an owner and a lease: renewed it holds, ended another node takes it over", async () => {
    const { a, b, close } = await twoNodes(open, peer);
    await queueOf(a, 1);
    expect(ids(await a.claimDue(NOW, 10, N1))).toEqual(["r0"]);
    expect(await a.claimsHeld(NOW + 1)).toEqual([{ owner: "n1", recipients: 1, webhooks: 0 }]);
    expect(await b.renewClaims(["r0"], NOW + 50_000, N2)).toEqual([]); // not n2's to renew
    expect(await a.renewClaims(["r0"], NOW + 50_000, N1)).toEqual(["r0"]); // now held until NOW + 110 s
    expect(await b.claimDue(NOW + 61_000, 10, N2)).toEqual([]);
    expect(ids(await b.claimDue(NOW + 111_000, 10, N2))).toEqual(["r0"]); // n1 went silent: n2 takes over
    expect(await a.renewClaims(["r0"], NOW + 112_000, N1)).toEqual([]); // n1 learns it lost the claim
    expect(await a.claimsHeld(NOW + 112_000)).toEqual([{ owner: "n2", recipients: 1, webhooks: 0 }]);
    await b.applyOutcomes([{ id: "r0", status: "delivered", attempts: 1, nextAttemptAt: NOW, firstAttemptAt: NOW, lastCode: 250, lastResponse: "ok", mx: "mx" }], [], [], NOW + 113_000);
    expect(await a.claimsHeld(NOW + 113_000)).toEqual([]);
    await close();
  });

  test("a restarting node takes back its own claims at once, never another node's", async () => {
    const { a, b, close } = await twoNodes(open, peer);
    await queueOf(a, 4);
    const mine = await a.claimDue(NOW, 2, N1);
    const theirs = await b.claimDue(NOW, 2, N2);
    expect(await a.releaseClaims(NOW + 1, "n1")).toBe(2);
    expect(ids(await a.claimDue(NOW + 1, 10, N1))).toEqual(ids(mine));
    expect(await a.releaseClaims(NOW + 2, "n3")).toBe(0);
    expect(await a.claimDue(NOW + 2, 10, N1)).toEqual([]);
    expect(ids(await a.claimDue(NOW + 60_000, 10, N1))).toEqual(ids(theirs)); // n2's lease ended, n1's own not yet
    await close();
  });

  test("a node hands back named claims of its own, due at once; another node's and finished rows stay as they are", async () => {
    const { a, b, close } = await twoNodes(open, peer);
    await queueOf(a, 4);
    const mine = ids(await a.claimDue(NOW, 2, N1));
    const theirs = ids(await b.claimDue(NOW, 2, N2));
    expect(await a.releaseClaims(NOW + 5, "n1", [mine[0]!, theirs[0]!])).toBe(1);
    expect(await a.releaseClaims(NOW + 5, "n1", [])).toBe(0);
    expect(await a.claimsHeld(NOW + 6)).toEqual([{ owner: "n1", recipients: 1, webhooks: 0 }, { owner: "n2", recipients: 2, webhooks: 0 }]);
    expect(ids(await b.claimDue(NOW + 6, 10, N2))).toEqual([mine[0]!]);
    await close();
  });

  test("purging spares live claims and takes those of a node whose lease ended", async () => {
    const { a, b, close } = await twoNodes(open, peer);
    await queueOf(a, 2);
    const [held] = await b.claimDue(NOW, 1, N2);
    const free = held!.id === "r0" ? "r1" : "r0";
    const purge = (at: number) => a.purgeQueue(at, ["r0", "r1"].map((id) => ({ recipientId: id, lastResponse: "purged", events: [], suppressions: [] })));
    expect(await purge(NOW + 1)).toEqual([free]);
    expect(await purge(NOW + 60_001)).toEqual([held!.id]);
    expect(await a.claimsHeld(NOW + 60_002)).toEqual([]);
    await close();
  });

  test("outbox items: owner and lease, renewal, take-over, a probe never takes a live claim, own claims back at a restart", async () => {
    const { a, b, close } = await twoNodes(open, peer);
    await a.enqueueOutbox([item("w1"), item("w2")]);
    expect(ids(await a.claimWebhooks(NOW, 1, N1))).toEqual(["w1"]);
    expect(ids(await b.claimWebhooks(NOW, 10, N2))).toEqual(["w2"]);
    expect(await a.claimWebhookProbe("http://127.0.0.1:9/hook", NOW, N1)).toBeNull(); // both held
    expect((await a.claimsHeld(NOW)).sort((x, y) => x.owner.localeCompare(y.owner))).toEqual([
      { owner: "n1", recipients: 0, webhooks: 1 }, { owner: "n2", recipients: 0, webhooks: 1 }]);
    expect(await a.renewWebhookClaims(["w1", "w2"], NOW + 50_000, N1)).toEqual(["w1"]);
    expect(await a.claimWebhooks(NOW + 61_000, 10, N1).then((r) => r.map((i) => i.id))).toEqual(["w2"]); // n2's ended, n1's renewed
    expect(await b.claimWebhooks(NOW + 61_000, 10, N2)).toEqual([]);
    expect(await b.releaseWebhookClaims(NOW + 62_000, "n2")).toBe(0); // nothing of n2's left
    expect(await a.releaseWebhookClaims(NOW + 62_000, "n1")).toBe(2);
    expect((await b.claimWebhookProbe("http://127.0.0.1:9/hook", NOW + 62_000, N2))?.id).toBe("w1");
    await close();
  });

  test("the node registry keeps each node's heartbeat and clean stop", async () => {
    const store = await open();
    const node = { nodeId: "us-1", zone: "us", host: "h1", pid: 11, startedAt: NOW };
    await store.nodes.heartbeat({ ...node, lastSeenAt: NOW });
    await store.nodes.heartbeat({ nodeId: "eu-1", zone: "eu", host: "h2", pid: 12, startedAt: NOW, lastSeenAt: NOW });
    await store.nodes.heartbeat({ ...node, lastSeenAt: NOW + 5_000 });
    await store.nodes.stopped("eu-1", NOW + 6_000);
    const list = await store.nodes.listNodes();
    expect(list.find((n) => n.nodeId === "us-1")).toEqual({ ...node, lastSeenAt: NOW + 5_000, stoppedAt: null });
    expect(list.find((n) => n.nodeId === "eu-1")?.stoppedAt).toBe(NOW + 6_000);
    await store.nodes.heartbeat({ nodeId: "eu-1", zone: "eu", host: "h2", pid: 13, startedAt: NOW + 7_000, lastSeenAt: NOW + 7_000 });
    expect((await store.nodes.listNodes()).find((n) => n.nodeId === "eu-1")).toMatchObject({ pid: 13, stoppedAt: null });
    await store.close();
  });
}

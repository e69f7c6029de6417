// runStoreContract: the behaviour every Store implementation must show (SQLite now, PostgreSQL later).
import { describe, expect, test } from "bun:test";
import type { Store } from "../../src/core/store-port.ts";
import { zoneContract } from "./contract-zone.ts";
import { controlContract } from "./contract-control.ts";
import { egressContract } from "./contract-egress.ts";
import { tlsReportContract } from "./contract-tls-report.ts";
import { outboxContract } from "./contract-outbox.ts";
import { contentContract } from "./contract-content.ts";
import { sendControlContract } from "./contract-send-controls.ts";
import { inboundContract } from "./contract-inbound.ts";
import { claimsContract } from "./contract-claims.ts";
import { destinationsContract } from "./contract-destinations.ts";
import { botMemoryContract } from "./contract-bot-memory.ts";
import { receiverReportContract } from "./contract-receiver-reports.ts";
import { retentionContract } from "./contract-retention.ts";
import { opsContract } from "./contract-ops.ts";
import { tlsStateContract } from "./contract-tls.ts";
import { alertsContract } from "./contract-alerts.ts";
import { trackingHostContract } from "./contract-tracking-hosts.ts";
import { teamContract } from "./contract-team.ts";
import { tenantsContract } from "./contract-tenants.ts";
import { tenscopeContract } from "./contract-tenscope.ts";
import { blocklistContract } from "./contract-blocklists.ts";
import { dkimKeyContract } from "./contract-dkim-keys.ts";
import { signInContract } from "./contract-signins.ts";

const NOW = 1_800_000_000_000;
/** Node n1's claims, a minute long. */
const L = { owner: "n1", leaseMs: 60_000 };

/** `openPeer` opens a second store on the same data (another node) when the engine can; `leasePeer` one the lease must refuse. */
export function runStoreContract(name: string, openStore: () => Store | Promise<Store>, openPeer?: (a: Store) => Store | Promise<Store>,
  leasePeer?: (a: Store) => Store | Promise<Store>) {
  const makeStore = openStore;
  describe(`${name} store`, () => {
    zoneContract(makeStore, openPeer, leasePeer ?? openPeer);
    sendControlContract(makeStore);
    controlContract(makeStore, openPeer);
    outboxContract(makeStore, openPeer);
    contentContract(makeStore);
    inboundContract(makeStore, openPeer);
    claimsContract(makeStore, openPeer);
    destinationsContract(makeStore, openPeer);
    botMemoryContract(makeStore, openPeer);
    receiverReportContract(makeStore, openPeer);
    retentionContract(makeStore);
    opsContract(makeStore);
    egressContract(makeStore, openPeer);
    tlsReportContract(makeStore, openPeer);
    tlsStateContract(makeStore, openPeer);
    alertsContract(makeStore, openPeer);
    trackingHostContract(makeStore, openPeer);
    teamContract(makeStore);
    tenantsContract(makeStore);
    tenscopeContract(makeStore);
    blocklistContract(makeStore, openPeer);
    dkimKeyContract(makeStore, openPeer);
    signInContract(makeStore, openPeer);
    const withDomain = async (store: Store, zone = "us") => store.control.insertDomain({ name: `d${Math.random().toString(36).slice(2, 8)}.test`, zone,
      wildcard: false, dkimSelector: "s1", keys: [], validation: true, botDetection: true, openTracking: false, clickTracking: false,
      unsubscribeTracking: false, inbound: false, limitMax: 0, limitWindow: "month" }, NOW);

    test("domains round-trip and names are unique", async () => {
      const store = await makeStore();
      const d = await withDomain(store);
      expect((await store.control.getDomain(d.name))?.id).toBe(d.id);
      await expect(store.control.insertDomain({ ...d, keys: [] }, NOW)).rejects.toThrow();
      await store.close();
    });

    test("a claimed recipient is not claimed again until its lease ends or claims are released", async () => {
      const store = await makeStore();
      const z = store.zone("us");
      await z.createSend({ messages: [{ id: "m1", sendId: "s1", domain: "a.test", messageIdHeader: "<m1@x>", from: "a@a.test", subject: "s",
        content: "{}", raw: null, tags: [], metadata: {}, callbackUrl: null, source: "cli", isTest: false, size: 2, createdAt: NOW }],
        recipients: [{ id: "r1", messageId: "m1", email: "b@b.test", rcptDomain: "b.test", kind: "to", status: "queued", attempts: 0,
          nextAttemptAt: NOW, firstAttemptAt: null, expiresAt: NOW + 1e9, lastCode: null, lastResponse: null, mx: null, updatedAt: NOW }],
        attachments: [], events: [] });
      expect((await z.claimDue(NOW, 10, L)).map((r) => r.id)).toEqual(["r1"]);
      expect(await z.claimDue(NOW + 1000, 10, L)).toEqual([]);
      expect((await z.claimDue(NOW + 61_000, 10, L)).map((r) => r.id)).toEqual(["r1"]);
      expect(await z.releaseClaims(NOW + 62_000, "n1")).toBe(1);
      expect((await z.claimDue(NOW + 62_000, 10, L)).map((r) => r.id)).toEqual(["r1"]);
      await z.applyOutcomes([{ id: "r1", status: "delivered", attempts: 1, nextAttemptAt: NOW, firstAttemptAt: NOW, lastCode: 250, lastResponse: "ok", mx: "mx" }], [], [], NOW);
      expect(await z.claimDue(NOW + 1e8, 10, L)).toEqual([]);
      expect((await z.getRecipient("r1"))?.status).toBe("delivered");
      await store.close();
    });

    test("a fair claim takes at most perDomain rows of a domain and none of the skipped domains", async () => {
      const store = await makeStore();
      const z = store.zone("us");
      const rcpt = (id: string, domain: string, at: number) => ({ id, messageId: "m1", email: `${id}@${domain}`, rcptDomain: domain, kind: "to" as const,
        status: "queued" as const, attempts: 0, nextAttemptAt: at, firstAttemptAt: null, expiresAt: NOW + 1e9, lastCode: null, lastResponse: null, mx: null, updatedAt: NOW });
      await z.createSend({ messages: [{ id: "m1", sendId: "s1", domain: "a.test", messageIdHeader: "<m1@x>", from: "a@a.test", subject: "s",
        content: "{}", raw: null, tags: [], metadata: {}, callbackUrl: null, source: "cli", isTest: false, size: 2, createdAt: NOW }],
        recipients: [...Array.from({ length: 6 }, (_, i) => rcpt(`slow${i}`, "slow.test", NOW + i)), rcpt("ok1", "ok.test", NOW + 10),
          rcpt("ok2", "ok.test", NOW + 11), rcpt("other", "other.test", NOW + 12)], attachments: [], events: [] });
      const first = await z.claimDue(NOW + 100, 10, L, { perDomain: 2, skipDomains: [] });
      expect(first.map((r) => r.id).sort()).toEqual(["ok1", "ok2", "other", "slow0", "slow1"]);
      expect((await z.claimDue(NOW + 100, 10, L, { perDomain: 2, skipDomains: ["slow.test"] }))).toEqual([]);
      expect((await z.claimDue(NOW + 100, 10, L, { perDomain: 3, skipDomains: [] })).map((r) => r.id)).toEqual(["slow2", "slow3", "slow4"]);
      await store.close();
    });

    test("purging fails waiting rows and records their events together, sparing rows being attempted", async () => {
      const store = await makeStore();
      const z = store.zone("us");
      const rcpt = (id: string) => ({ id, messageId: "m1", email: `${id}@b.test`, rcptDomain: "b.test", kind: "to" as const, status: "queued" as const,
        attempts: 0, nextAttemptAt: NOW, firstAttemptAt: null, expiresAt: NOW + 1e9, lastCode: null, lastResponse: null, mx: null, updatedAt: NOW });
      await z.createSend({ messages: [{ id: "m1", sendId: "s1", domain: "a.test", messageIdHeader: "<m1@x>", from: "a@a.test", subject: "s",
        content: "{}", raw: null, tags: [], metadata: {}, callbackUrl: null, source: "cli", isTest: false, size: 2, createdAt: NOW }],
        recipients: [rcpt("r1"), rcpt("r2")], attachments: [], events: [] });
      await z.claimDue(NOW, 1, L); // r1 is being attempted
      const item = (id: string) => ({ recipientId: id, lastResponse: "purged", suppressions: [], events: [{ id: `e-${id}`, type: "failed" as const, messageId: "m1",
        recipient: `${id}@b.test`, domain: "a.test", timestamp: NOW + 1, tags: [], metadata: {} }] });
      expect(await z.purgeQueue(NOW + 1, [item("r1"), item("r2")])).toEqual(["r2"]);
      expect((await z.getRecipient("r2"))?.status).toBe("failed");
      expect((await z.getRecipient("r1"))?.status).toBe("queued");
      expect((await z.searchEvents({ messageId: "m1", limit: 10 })).map((e) => e.recipient)).toEqual(["r2@b.test"]);
      await store.close();
    });

    test("suppressions are per domain and case-insensitive", async () => {
      const store = await makeStore();
      const z = store.zone("us");
      await z.addSuppressions([{ domain: "a.test", type: "bounces", address: "X@Y.test", reason: "r", code: "550", scope: null, createdAt: NOW }]);
      expect((await z.findSuppressed("a.test", ["x@y.TEST"])).length).toBe(1);
      expect((await z.findSuppressed("b.test", ["x@y.test"])).length).toBe(0);
      expect(await z.deleteSuppression("a.test", "bounces", "x@y.test")).toBe(1);
      await store.close();
    });

    test("a send's messages and extras read back by send, and sends list newest first with filters", async () => {
      const store = await makeStore();
      const z = store.zone("us");
      const message = (id: string, sendId: string, at: number, extra = {}) => ({ id, sendId, domain: "a.test", messageIdHeader: `<${id}@x>`, from: "a@a.test",
        subject: "s", content: "{}", raw: null, tags: [], metadata: {}, callbackUrl: null, source: "sparkpost", isTest: false, size: 2, createdAt: at, extra });
      const recipient = (id: string, messageId: string, nextAttemptAt: number) => ({ id, messageId, email: `${id}@b.test`, rcptDomain: "b.test", kind: "to" as const,
        status: "queued" as const, attempts: 0, nextAttemptAt, firstAttemptAt: null, expiresAt: NOW + 1e9, lastCode: null, lastResponse: null, mx: null, updatedAt: NOW });
      const camp = { campaignId: "spring", description: "d", asmGroupId: 7 };
      await z.createSend({ messages: [message("m1", "s1", NOW, camp), message("m2", "s1", NOW, camp)],
        recipients: [recipient("r1", "m1", NOW), recipient("r2", "m2", NOW)], attachments: [], events: [] });
      await z.createSend({ messages: [message("m3", "s2", NOW + 1)], recipients: [recipient("r3", "m3", NOW + 3_600_000)], attachments: [], events: [] });
      expect((await z.listMessagesBySend("s1")).map((m) => [m.id, m.extra])).toEqual([["m1", camp], ["m2", camp]]);
      expect((await z.getMessage("m3"))?.extra).toEqual({});
      expect(await z.listSends("a.test", { limit: 10 })).toEqual([
        { id: "s2", domain: "a.test", createdAt: NOW + 1, extra: {}, messages: 1 },
        { id: "s1", domain: "a.test", createdAt: NOW, extra: camp, messages: 2 }]);
      expect((await z.listSends(undefined, { campaignId: "spring", limit: 10 })).map((s) => s.id)).toEqual(["s1"]);
      expect((await z.listSends("a.test", { scheduledAfter: NOW + 10, limit: 10 })).map((s) => s.id)).toEqual(["s2"]);
      expect(await z.listSends("other.test", { limit: 10 })).toEqual([]);
      await store.close();
    });

    test("suppressions list forwards after a cursor and backwards before one", async () => {
      const store = await makeStore();
      const z = store.zone("us");
      await z.addSuppressions(["a", "b", "c", "d", "e"].map((l) => ({ domain: "a.test", type: "bounces" as const, address: `${l}@x.test`, reason: "", code: "", scope: null, createdAt: NOW })));
      const list = async (q: { after?: string; before?: string; descending?: boolean }) =>
        (await z.listSuppressions({ domain: "a.test", type: "bounces", limit: 2, ...q })).map((s) => s.address[0]);
      expect(await list({ after: "b@x.test" })).toEqual(["c", "d"]);
      expect(await list({ before: "d@x.test", descending: true })).toEqual(["c", "b"]);
      expect(await list({ descending: true })).toEqual(["e", "d"]);
      expect(await list({ before: "c@x.test" })).toEqual(["a", "b"]);
      await store.close();
    });

    test("a domain's data is written only to its zone", async () => {
      const store = await makeStore();
      await store.zone("eu").addSuppressions([{ domain: "eu.test", type: "bounces", address: "a@b.test", reason: "", code: "", scope: null, createdAt: NOW }]);
      expect((await store.zone("us").listSuppressions({ domain: "eu.test", limit: 10 })).length).toBe(0);
      expect((await store.zone("eu").listSuppressions({ domain: "eu.test", limit: 10 })).length).toBe(1);
      await store.close();
    });
  });
}

// runStoreContract: the behaviour every Store implementation must show (SQLite now, PostgreSQL later).
import { describe, expect, test } from "bun:test";
import type { Store } from "../../src/store/store.ts";

const NOW = 1_800_000_000_000;

export function runStoreContract(name: string, makeStore: () => Store) {
  describe(`${name} store`, () => {
    const withDomain = async (store: Store, zone = "us") => store.control.insertDomain({ name: `d${Math.random().toString(36).slice(2, 8)}.test`, zone,
      wildcard: false, dkimSelector: "s1", keys: [], validation: true, botDetection: true, openTracking: false, clickTracking: false,
      unsubscribeTracking: false, limitMax: 0, limitWindow: "month" }, NOW);

    test("domains round-trip and names are unique", async () => {
      const store = makeStore();
      const d = await withDomain(store);
      expect((await store.control.getDomain(d.name))?.id).toBe(d.id);
      await expect(store.control.insertDomain({ ...d, keys: [] }, NOW)).rejects.toThrow();
      store.close();
    });

    test("a claimed recipient is not claimed again until its lease ends or claims are released", async () => {
      const store = makeStore();
      const z = store.zone("us");
      await z.createSend({ messages: [{ id: "m1", sendId: "s1", domain: "a.test", messageIdHeader: "<m1@x>", from: "a@a.test", subject: "s",
        content: "{}", raw: null, tags: [], metadata: {}, callbackUrl: null, source: "cli", isTest: false, size: 2, createdAt: NOW }],
        recipients: [{ id: "r1", messageId: "m1", email: "b@b.test", rcptDomain: "b.test", kind: "to", status: "queued", attempts: 0,
          nextAttemptAt: NOW, firstAttemptAt: null, expiresAt: NOW + 1e9, lastCode: null, lastResponse: null, mx: null, updatedAt: NOW }],
        attachments: [], events: [] });
      expect((await z.claimDue(NOW, 10, 60_000)).map((r) => r.id)).toEqual(["r1"]);
      expect(await z.claimDue(NOW + 1000, 10, 60_000)).toEqual([]);
      expect((await z.claimDue(NOW + 61_000, 10, 60_000)).map((r) => r.id)).toEqual(["r1"]);
      expect(await z.releaseClaims(NOW + 62_000)).toBe(1);
      expect((await z.claimDue(NOW + 62_000, 10, 60_000)).map((r) => r.id)).toEqual(["r1"]);
      await z.applyOutcomes([{ id: "r1", status: "delivered", attempts: 1, nextAttemptAt: NOW, firstAttemptAt: NOW, lastCode: 250, lastResponse: "ok", mx: "mx" }], [], [], NOW);
      expect(await z.claimDue(NOW + 1e8, 10, 60_000)).toEqual([]);
      expect((await z.getRecipient("r1"))?.status).toBe("delivered");
      store.close();
    });

    test("suppressions are per domain and case-insensitive", async () => {
      const store = makeStore();
      const z = store.zone("us");
      await z.addSuppressions([{ domain: "a.test", type: "bounces", address: "X@Y.test", reason: "r", code: "550", scope: null, createdAt: NOW }]);
      expect((await z.findSuppressed("a.test", ["x@y.TEST"])).length).toBe(1);
      expect((await z.findSuppressed("b.test", ["x@y.test"])).length).toBe(0);
      expect(await z.deleteSuppression("a.test", "bounces", "x@y.test")).toBe(1);
      store.close();
    });

    test("a domain's data is written only to its zone", async () => {
      const store = makeStore();
      await store.zone("eu").addSuppressions([{ domain: "eu.test", type: "bounces", address: "a@b.test", reason: "", code: "", scope: null, createdAt: NOW }]);
      expect((await store.zone("us").listSuppressions({ domain: "eu.test", limit: 10 })).length).toBe(0);
      expect((await store.zone("eu").listSuppressions({ domain: "eu.test", limit: 10 })).length).toBe(1);
      store.close();
    });
  });
}

// The inbound half of the store contract: a received body streamed in pieces, committed with its
// posts in one transaction, read back whole by any node of the zone, and purged (expired messages,
// and pieces of messages never committed once they are old enough).
import { expect, test } from "bun:test";
import type { Store } from "../../src/core/store-port.ts";
import { ORPHAN_BODY_MS, type NewInbound } from "../../src/core/inbound/model.ts";

const NOW = 1_800_000_000_000;
/** Node n1's claims, a minute long. */
const L = { owner: "n1", leaseMs: 60_000 };
const enc = (s: string) => new TextEncoder().encode(s);
const message = (id: string, bodyId: string, expiresAt = NOW + 1e9): NewInbound => ({
  envelope: { id, domain: "a.test", mailFrom: "x@b.test", rcptTo: ["in@a.test"], remoteIp: "127.0.0.1", heloName: "h", receivedAt: NOW,
    auth: { spf: "pass", dkim: [], dmarc: "none" } },
  trace: enc("Received: by test\r\n"), bodyId, storageKey: `key-${id}`, expiresAt,
});

export function inboundContract(open: () => Store | Promise<Store>, peer?: (a: Store) => Store | Promise<Store>) {
  test("a body streamed in pieces is read back whole, behind its trace, by every node of the zone", async () => {
    const a = await open();
    const z = a.zone("us");
    await z.appendInboundBody("b1", 0, enc("Subject: hi\r\n\r\n"), NOW);
    await z.appendInboundBody("b1", 1, enc("part one\r\n"), NOW);
    await z.appendInboundBody("b1", 2, enc("part two\r\n"), NOW);
    const post = { id: "p1", format: "mailgun-route" as const, url: "http://127.0.0.1:9/x", recipient: "in@a.test", ruleId: "r1", options: {} };
    await z.storeInbound(message("m1", "b1"), [post], NOW);
    const whole = "Received: by test\r\nSubject: hi\r\n\r\npart one\r\npart two\r\n";
    const b = peer ? await peer(a) : a;
    for (const s of [a, b]) {
      expect(new TextDecoder().decode((await s.zone("us").getInbound("m1"))!.raw)).toBe(whole);
      expect((await s.zone("us").getInboundByKey("key-m1"))?.envelope.id).toBe("m1");
    }
    const [item] = await z.claimWebhooks(NOW, 10, L);
    expect(JSON.parse(item!.payload)).toEqual([{ inboundId: "m1", recipient: "in@a.test", ruleId: "r1", url: "http://127.0.0.1:9/x", options: {} }]);
    if (b !== a) await b.close();
    await a.close();
  });

  test("two messages may name one body; a discarded body is gone", async () => {
    const store = await open();
    const z = store.zone("us");
    await z.appendInboundBody("b2", 0, enc("\r\nshared"), NOW);
    await z.storeInbound(message("m2", "b2"), [], NOW);
    await z.storeInbound(message("m3", "b2"), [], NOW);
    expect(new TextDecoder().decode((await z.getInbound("m3"))!.raw)).toEndWith("shared");
    await z.appendInboundBody("b3", 0, enc("never committed"), NOW);
    await z.discardInboundBody("b3");
    await z.storeInbound(message("m4", "b3"), [], NOW); // names nothing any more: only the trace is left
    expect(new TextDecoder().decode((await z.getInbound("m4"))!.raw)).toBe("Received: by test\r\n");
    await store.close();
  });

  test("purge: expired messages and their bodies, and old pieces no message names; fresh pieces stay", async () => {
    const store = await open();
    const z = store.zone("us");
    await z.appendInboundBody("old", 0, enc("x"), NOW);
    await z.storeInbound(message("m5", "old", NOW + 10), [], NOW);
    await z.appendInboundBody("lost", 0, enc("connection lost"), NOW);
    const later = NOW + ORPHAN_BODY_MS + 20;
    await z.appendInboundBody("receiving", 0, enc("still coming"), later - 5);
    await z.appendInboundBody("kept", 0, enc("\r\nkept"), NOW);
    await z.storeInbound(message("m6", "kept"), [], NOW);
    expect(await z.purgeInbound(later)).toBe(1);
    expect(await z.getInbound("m5")).toBeNull();
    expect(new TextDecoder().decode((await z.getInbound("m6"))!.raw)).toEndWith("kept");
    // "receiving" is young: committing it now still finds its piece.
    await z.storeInbound(message("m7", "receiving"), [], later);
    expect(new TextDecoder().decode((await z.getInbound("m7"))!.raw)).toEndWith("still coming");
    // "lost" was removed: a late commit naming it has no body.
    await z.storeInbound(message("m8", "lost"), [], later);
    expect(new TextDecoder().decode((await z.getInbound("m8"))!.raw)).toBe("Received: by test\r\n");
    await store.close();
  });
}

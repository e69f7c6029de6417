// The store contract for the blocklist watch's history: entries saved by (subject, zone), replaced
// on the next save, listed in order, and seen by another node of the same database.
import { expect, test } from "bun:test";
import type { Store } from "../../src/core/store-port.ts";
import type { BlocklistEntry } from "../../src/core/blocklist-port.ts";

const NOW = 1_800_000_000_000;
type Open = () => Store | Promise<Store>;

const entry = (subject: string, zone: string, over: Partial<BlocklistEntry> = {}): BlocklistEntry => ({ subject, kind: "ip", zone, state: "clear",
  answer: "", cause: "", firstSeen: NOW, lastSeen: NOW, lastKnown: "clear", ...over });

export function blocklistContract(open: Open, openPeer?: (a: Store) => Store | Promise<Store>) {
  test("blocklist history: saved by subject and zone, replaced, listed in order, shared with the other nodes", async () => {
    const a = await open();
    const b = openPeer ? await openPeer(a) : a;
    expect(await a.control.listBlocklistEntries()).toEqual([]);
    await a.control.saveBlocklistEntries([entry("192.0.2.9", "z.test"), entry("192.0.2.1", "z.test"), entry("192.0.2.1", "a.test")]);
    await a.control.saveBlocklistEntries([entry("192.0.2.1", "z.test", { state: "listed", answer: "127.0.0.2", firstSeen: NOW + 5, lastSeen: NOW + 5, lastKnown: "listed" })]);
    await a.control.saveBlocklistEntries([entry("bad.test", "dbl.test", { kind: "domain", state: "unknown", cause: "SERVFAIL", lastKnown: "" })]);
    const list = await b.control.listBlocklistEntries();
    expect(list.map((e) => `${e.subject} ${e.zone} ${e.state}`)).toEqual(["192.0.2.1 a.test clear", "192.0.2.1 z.test listed", "192.0.2.9 z.test clear", "bad.test dbl.test unknown"]);
    expect(list[1]).toEqual(entry("192.0.2.1", "z.test", { state: "listed", answer: "127.0.0.2", firstSeen: NOW + 5, lastSeen: NOW + 5, lastKnown: "listed" }));
    expect(list[3]).toMatchObject({ kind: "domain", cause: "SERVFAIL", lastKnown: "" });
    if (b !== a) await b.close();
    await a.close();
  });
}

// The store contract for the DKIM key lifecycle: several keys per (domain, algorithm), one per
// selector; a domain's first keys are active since it was added; keys added and moved along.
import { expect, test } from "bun:test";
import type { Store } from "../../src/core/store-port.ts";

const NOW = 1_800_000_000_000;
type Open = () => Store | Promise<Store>;

const domain = { name: "rot.test", zone: "us", wildcard: false, dkimSelector: "s1", validation: false, botDetection: false,
  openTracking: false, clickTracking: false, unsubscribeTracking: false, inbound: false, limitMax: 0, limitWindow: "month" as const,
  keys: [{ selector: "s1", algorithm: "rsa-sha256" as const, privateKeyPem: "PRIV-1", publicKey: "PUB-1" }] };

export function dkimKeyContract(open: Open, openPeer?: (a: Store) => Store | Promise<Store>) {
  test("DKIM keys: several per algorithm by selector, added once, moved along their states, seen by the other nodes", async () => {
    const a = await open();
    const b = openPeer ? await openPeer(a) : a;
    const d = await a.control.insertDomain(domain, NOW);
    expect(await a.control.getDkimKeys(d.id)).toEqual([{ domainId: d.id, selector: "s1", algorithm: "rsa-sha256", privateKeyPem: "PRIV-1",
      publicKey: "PUB-1", state: "active", createdAt: NOW, activatedAt: NOW, retireAt: null }]);
    const fresh = { domainId: d.id, selector: "p20270101", algorithm: "rsa-sha256" as const, privateKeyPem: "PRIV-2", publicKey: "PUB-2",
      state: "pending" as const, createdAt: NOW + 10 };
    expect(await a.control.insertDkimKey(fresh)).toBe(true);
    expect(await a.control.insertDkimKey({ ...fresh, publicKey: "OTHER" })).toBe(false);
    expect(await a.control.updateDkimKey(d.id, "p20270101", { state: "active", activatedAt: NOW + 20 })).toBe(true);
    expect(await a.control.updateDkimKey(d.id, "s1", { state: "retiring", retireAt: NOW + 99 })).toBe(true);
    expect(await a.control.updateDkimKey(d.id, "nope", { state: "retired" })).toBe(false);
    const seen = await b.control.getDkimKeys(d.id);
    expect(seen.map((k) => [k.selector, k.state, k.activatedAt, k.retireAt, k.publicKey])).toEqual([
      ["s1", "retiring", NOW, NOW + 99, "PUB-1"], ["p20270101", "active", NOW + 20, null, "PUB-2"]]);
    expect(await a.control.updateDkimKey(d.id, "s1", { state: "retired" })).toBe(true);
    expect((await a.control.getDkimKeys(d.id))[0]).toMatchObject({ state: "retired", activatedAt: NOW, retireAt: null });
    await a.control.deleteDomain("rot.test");
    expect(await a.control.getDkimKeys(d.id)).toEqual([]);
    if (b !== a) await b.close();
    await a.close();
  });
}

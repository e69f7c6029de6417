// The store contract for egress: sends per source per UTC hour (the warm-up caps), shared by the
// nodes of one database, and a domain's pool.
import { expect, test } from "bun:test";
import type { Store } from "../../src/core/store-port.ts";

const NOW = 1_800_000_000_000;
const HOUR = 500_000;
type Open = () => Store | Promise<Store>;

export function egressContract(open: Open, openPeer?: (a: Store) => Store | Promise<Store>) {
  test("egress slots: counted up to the cap per source and hour, shared with the other nodes", async () => {
    const a = await open();
    const b = openPeer ? await openPeer(a) : a;
    const took: boolean[] = [];
    for (let i = 0; i < 3; i++) took.push(await a.control.takeEgressSlot("new", HOUR, 4), await b.control.takeEgressSlot("new", HOUR, 4));
    expect(took.filter(Boolean)).toHaveLength(4);
    expect(took.slice(0, 4)).toEqual([true, true, true, true]);
    expect(await a.control.takeEgressSlot("new", HOUR + 1, 4)).toBe(true);
    expect(await a.control.takeEgressSlot("other", HOUR, 0)).toBe(false);
    expect(await b.control.egressSends(HOUR)).toEqual({ new: 4 });
    if (b !== a) await b.close();
    await a.close();
  });

  test("egress sends counted in memory are added; hours older than a day are forgotten", async () => {
    const store = await open();
    const c = store.control;
    await c.addEgressSends(HOUR - 30, { warm: 7 });
    await c.addEgressSends(HOUR, { warm: 3, other: 0 });
    await c.addEgressSends(HOUR, { warm: 2, second: 1 });
    expect(await c.egressSends(HOUR)).toEqual({ warm: 5, second: 1 });
    expect(await c.egressSends(HOUR - 30)).toEqual({});
    expect(await c.egressSends(HOUR + 1)).toEqual({});
    await store.close();
  });

  test("a domain's egress pool: empty by default, set and cleared", async () => {
    const store = await open();
    const c = store.control;
    const d = await c.insertDomain({ name: "pool.test", zone: "us", wildcard: false, dkimSelector: "s1", keys: [], validation: false, botDetection: false,
      openTracking: false, clickTracking: false, unsubscribeTracking: false, inbound: false, limitMax: 0, limitWindow: "month" }, NOW);
    expect(d.pool).toBe("");
    expect((await c.updateDomain("pool.test", { pool: "bulk" }, NOW + 1))?.pool).toBe("bulk");
    expect((await c.getDomain("pool.test"))?.pool).toBe("bulk");
    expect((await c.updateDomain("pool.test", { pool: "" }, NOW + 2))?.pool).toBe("");
    await store.close();
  });
}

// The store contract for TLS state: named items read back, replaced and deleted, seen by another
// node; the TLS lock lets one holder in at a time (the second waits, then runs).
import { expect, test } from "bun:test";
import type { Store } from "../../src/core/store-port.ts";

const NOW = 1_800_000_000_000;
type Open = () => Store | Promise<Store>;

export function tlsStateContract(open: Open, openPeer?: (a: Store) => Store | Promise<Store>) {
  test("tls state: items read back, are replaced and deleted, on every node", async () => {
    const a = await open();
    const b = openPeer ? await openPeer(a) : a;
    expect(await a.tls.getTlsItem("cert.pem")).toBeNull();
    await a.tls.putTlsItem("cert.pem", "one", NOW);
    await a.tls.putTlsItem("cert.pem", "two", NOW + 1);
    expect(await b.tls.getTlsItem("cert.pem")).toBe("two");
    await b.tls.deleteTlsItem("cert.pem");
    expect(await a.tls.getTlsItem("cert.pem")).toBeNull();
    if (b !== a) await b.close();
    await a.close();
  });

  // Two callers of one store: SQLite serves one process per data directory (serve.lock), so its
  // lock need not reach other processes; PostgreSQL's advisory lock does (test/tls/nodes.test.ts).
  test("tls state: one holder of the lock at a time; a failure releases it", async () => {
    const a = await open();
    const b = a;
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    const first = a.tls.withTlsLock(async () => { order.push("a in"); await held; order.push("a out"); return 1; });
    await Bun.sleep(50);
    const second = b.tls.withTlsLock(async () => { order.push("b in"); return 2; });
    await Bun.sleep(100);
    expect(order).toEqual(["a in"]);
    release();
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(order).toEqual(["a in", "a out", "b in"]);
    await expect(a.tls.withTlsLock(async () => { throw new Error("boom"); })).rejects.toThrow("boom");
    expect(await b.tls.withTlsLock(async () => "after")).toBe("after");
    await a.close();
  });
}

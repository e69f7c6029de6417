// The store contract for tracking hosts: a domain's own host and the state its checks record, on
// the domain's row (so cached domain reads carry them), seen by the other nodes.
import { expect, test } from "bun:test";
import type { Store } from "../../src/core/store-port.ts";

const NOW = 1_800_000_000_000;
type Open = () => Store | Promise<Store>;

const newDomain = (name: string) => ({ name, zone: "us", wildcard: false, dkimSelector: "s1", keys: [], validation: false, botDetection: false,
  openTracking: false, clickTracking: false, unsubscribeTracking: false, inbound: false, limitMax: 0, limitWindow: "month" });

export function trackingHostContract(open: Open, openPeer?: (a: Store) => Store | Promise<Store>) {
  test("a domain's tracking host: default and pending at first, set, checked, and set again starts over", async () => {
    const store = await open();
    const peer = openPeer ? await openPeer(store) : store;
    const c = store.control;
    const d = await c.insertDomain(newDomain("track.test"), NOW);
    expect(d.tracking).toEqual({ host: "", state: "pending", note: "", changedAt: 0 });
    expect(await c.setTrackingHost("Track.test", "links.track.test", NOW + 1)).toBe(true);
    expect((await peer.control.getDomain("track.test"))?.tracking).toEqual({ host: "links.track.test", state: "pending", note: "", changedAt: NOW + 1 });
    expect((await c.getDomain("track.test"))?.updatedAt).toBe(NOW + 1);
    expect(await peer.control.recordTrackingState("track.test", "https", "resolves to this server", NOW + 2)).toBe(true);
    const checked = await c.getDomain("track.test");
    expect(checked?.tracking).toEqual({ host: "links.track.test", state: "https", note: "resolves to this server", changedAt: NOW + 2 });
    // A check is not an edit: updated_at stays.
    expect(checked?.updatedAt).toBe(NOW + 1);
    expect((await c.listDomains()).find((x) => x.name === "track.test")?.tracking?.state).toBe("https");
    await c.setTrackingHost("track.test", "", NOW + 3);
    expect((await c.getDomainById(d.id))?.tracking).toEqual({ host: "", state: "pending", note: "", changedAt: NOW + 3 });
    expect(await c.setTrackingHost("missing.test", "x.missing.test", NOW)).toBe(false);
    expect(await c.recordTrackingState("missing.test", "pending", "", NOW)).toBe(false);
    if (peer !== store) await peer.close();
    await store.close();
  });
}

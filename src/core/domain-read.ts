// The one cached domain read. Sending, delivery, DKIM keys, webhook fan-out and signing keys,
// tracking, suppressions and authentication all ask for a domain by name or id, many times per
// message; this decorator of the store answers them from memory for a moment. Every domain write
// through this store drops the cache at once, so a change made here is seen here immediately; a
// change another process makes (the CLI beside a running server) is seen within TTL_MS.
import type { Domain } from "./model.ts";
import type { ControlStore, Store } from "./store-port.ts";

const TTL_MS = 1_000;
const MAX_ENTRIES = 10_000;

export function withDomainCache(store: Store, now: () => number): Store {
  return { ...store, control: cachedControl(store.control, now) };
}

function cachedControl(control: ControlStore, now: () => number): ControlStore {
  // Misses (null) are not kept: a domain added by another process must be found at once.
  const byName = new Map<string, { domain: Domain; at: number }>();
  const byId = new Map<number, { domain: Domain; at: number }>();
  const remember = (d: Domain | null) => {
    if (!d) return d;
    if (byName.size >= MAX_ENTRIES) { byName.clear(); byId.clear(); }
    const entry = { domain: d, at: now() };
    byName.set(d.name, entry);
    byId.set(d.id, entry);
    return d;
  };
  const fresh = (e: { domain: Domain; at: number } | undefined) => (e && now() - e.at < TTL_MS ? e.domain : undefined);
  const changed = <A extends unknown[], R>(write: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    try { return await write(...args); } finally { byName.clear(); byId.clear(); }
  };
  return {
    ...control,
    getDomain: async (name) => fresh(byName.get(name)) ?? remember(await control.getDomain(name)),
    getDomainById: async (id) => fresh(byId.get(id)) ?? remember(await control.getDomainById(id)),
    insertDomain: changed(control.insertDomain),
    updateDomain: changed(control.updateDomain),
    deleteDomain: changed(control.deleteDomain),
    domainWebhookKey: changed(control.domainWebhookKey),
  };
}

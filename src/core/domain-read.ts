// The one cached domain read (and webhook targets', tenants' and the domain list's reads). Sending,
// delivery, DKIM keys, webhook fan-out and signing keys, tracking, suppressions and authentication
// all ask for a domain by name or id, many times per message, and fan-out and webhook delivery for
// a domain's targets; every send reads its domain's tenant (status, monthly limit) and every
// authenticated request lists the domains to know the other tenants' (core/permissions.ts actFor)
// and reads its tenants (by id, or by the name a header gives);
// this decorator of the store answers them from memory. Every domain, webhook or tenant write through this
// store drops the cache at once; before the first read of each turn of the event loop it asks the
// store's change mark (SQLite's `PRAGMA data_version`, PostgreSQL's trigger-bumped counter), so a
// change another process committed (the CLI beside a running server) is seen by the next turn's
// reads, not after a timer.
import type { Domain } from "./model.ts";
import type { ControlStore, Store, WebhookTarget } from "./store-port.ts";
import type { Tenant } from "./tenants.ts";

const MAX_ENTRIES = 10_000;

export function withDomainCache(store: Store): Store {
  return { ...store, control: cachedControl(store.control) };
}

/**
 * Runs `check` for a caller so that the run it waits for started after the call: concurrent
 * callers share one run (one round trip on PostgreSQL for a burst of reads), and a caller arriving
 * while one is under way joins the next, since the one under way may have read before its write.
 */
export function coalesced(check: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  const start = (): Promise<void> => (running = check().finally(() => { running = null; }));
  return () => {
    if (!running) return start();
    next ??= running.then(() => { next = null; return running ?? start(); }, () => { next = null; return start(); });
    return next;
  };
}

function cachedControl(control: ControlStore): ControlStore {
  // Misses (null) are not kept: a domain added by another process must be found at once.
  const byName = new Map<string, Domain>();
  const byId = new Map<number, Domain>();
  const targets = new Map<number | null, WebhookTarget[]>();
  const tenants = new Map<number, Tenant>();
  // By the name a header spells (SendGrid's on-behalf-of, X-Postern-Tenant): misses are not kept, so
  // only real tenants fill it; a rename drops it like any tenant write.
  const tenantNames = new Map<string, Tenant>();
  // Every domain, frozen: handed out as is to unfiltered reads (core/permissions.ts keeps the other
  // tenants' names per list it is given, so a list kept here is one set built, not one per request).
  let domainList: readonly Domain[] | null = null;
  // Bumped by every drop: a row read that was under way across a drop may predate it, so it is
  // answered but not kept.
  let generation = 0;
  const drop = () => { byName.clear(); byId.clear(); targets.clear(); tenants.clear(); tenantNames.clear(); domainList = null; generation++; };
  let mark: number | null = null;
  const checkNow = coalesced(async () => {
    const now = await control.changeMark();
    if (now !== mark) { drop(); mark = now; }
  });
  // Once per turn of the event loop: a message asks for its domain several times within one turn
  // (accept, signing, fan-out), and the mark, asked each time, was 2 % of the delivery bench's CPU.
  // Another process's commit is still seen by the first read of the next turn.
  let checkedThisTurn: Promise<void> | null = null;
  const checkMark = () => {
    if (checkedThisTurn) return checkedThisTurn;
    checkedThisTurn = checkNow();
    setImmediate(() => { checkedThisTurn = null; });
    return checkedThisTurn;
  };
  const remember = (d: Domain | null, readIn: number) => {
    if (!d || readIn !== generation) return d;
    if (byName.size >= MAX_ENTRIES) drop();
    byName.set(d.name, d);
    byId.set(d.id, d);
    return d;
  };
  const changed = <A extends unknown[], R>(write: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    try { return await write(...args); } finally { drop(); }
  };
  return {
    ...control,
    getDomain: async (name) => {
      await checkMark();
      const g = generation;
      return byName.get(name) ?? remember(await control.getDomain(name), g);
    },
    getDomainById: async (id) => {
      await checkMark();
      const g = generation;
      return byId.get(id) ?? remember(await control.getDomainById(id), g);
    },
    listWebhooks: async (domainId, tenant) => {
      await checkMark();
      const g = generation;
      // Cached per domain; the tenant filter (as the engines apply it) runs on the cached list.
      const mine = (list: WebhookTarget[]) => (tenant === undefined ? list : list.filter((w) => (w.tenantId ?? 0) === tenant));
      const hit = targets.get(domainId);
      if (hit) return mine(hit);
      const list = await control.listWebhooks(domainId);
      if (g === generation) targets.set(domainId, list);
      return mine(list);
    },
    // By id (each send, each request's own and acting tenant) and by name (each request whose header names one).
    getTenant: async (q) => {
      await checkMark();
      const g = generation;
      const hit = "id" in q ? tenants.get(q.id) : tenantNames.get(q.name);
      if (hit) return hit;
      const t = await control.getTenant(q);
      if (t && g === generation) {
        tenants.set(t.id, t);
        if (!("id" in q)) tenantNames.set(q.name, t);
      }
      return t;
    },
    listDomains: async (tenant) => {
      await checkMark();
      const g = generation;
      let all = domainList;
      if (!all) {
        all = Object.freeze(await control.listDomains());
        if (g === generation) domainList = all;
      }
      // The engines' tenant filter, on the kept list (both order by id).
      return tenant === undefined ? (all as Domain[]) : all.filter((d) => (d.tenantId ?? 0) === tenant);
    },
    insertTenant: changed(control.insertTenant),
    updateTenant: changed(control.updateTenant),
    insertWebhook: changed(control.insertWebhook),
    updateWebhook: changed(control.updateWebhook),
    deleteWebhook: changed(control.deleteWebhook),
    insertDomain: changed(control.insertDomain),
    updateDomain: changed(control.updateDomain),
    deleteDomain: changed(control.deleteDomain),
    domainWebhookKey: changed(control.domainWebhookKey),
    setTrackingHost: changed(control.setTrackingHost),
    recordTrackingState: changed(control.recordTrackingState),
  };
}

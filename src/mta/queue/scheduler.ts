// The delivery loop: claims due recipients with a lease, groups them by zone and destination
// domain, runs the attempts within the connection limits, and writes each outcome as soon as it
// is known (outcomes that finish together share a transaction), handing new events on. Slots are
// handed out per destination domain and given back per recipient: a slow destination holds at
// most its own share, never the slots of the others.
import type { ClaimLease, Store, StoredRecipient } from "../../core/store-port.ts";
import type { Logger } from "../../log.ts";
import type { Recorded, Recorder } from "../../core/recorder.ts";
import type { Delivery } from "../delivery/attempt.ts";
import { applyHold, applyOutcome, type QueuePolicy } from "./policy.ts";
import { createOutcomeWriter } from "./writer.ts";

const IDLE_POLL_MS = 1_000;
/** After a small claim, wait this long so that new mail is claimed in batches, not one row per transaction. */
const CLAIM_COALESCE_MS = 10;
/** With every due destination at its limit, how long to wait before looking again without a poke. */
const SATURATED_POLL_MS = 100;
/** Claim again once this share of the in-flight room is free (or nothing is in flight): a claim per
 *  finished recipient walks the due index each time, and with a backlog that was a tenth of the CPU. */
const CLAIM_WHEN_FREE = 1 / 8;
/** Rows per claim at most: a claim is one synchronous transaction (about 20 µs a row on SQLite);
 *  a bigger room is filled by several, with a turn of the event loop between them. */
const CLAIM_BATCH = 100;

export interface SchedulerDeps {
  store: Store;
  delivery: Delivery;
  policy: QueuePolicy;
  now: () => number;
  log: Logger;
  /** Recipients in flight at once (claimed, not yet written back). */
  maxInFlight: number;
  perDomainConcurrency: number;
  recorder: Recorder;
  /**
   * This node's claims: renewed every third of the lease while their attempts run, so a live claim
   * never ends, and a killed node's claims go to the other nodes soon after it died.
   */
  lease: ClaimLease;
  /** Recipients of one destination domain in flight at once (default: twice its concurrency). */
  perDomainInFlight?: number;
}


/** True when `p` settled within `ms` (never rejects: attempts catch their own errors). */
async function settlesBy(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => { timer = setTimeout(() => resolve(false), Math.max(0, ms)); });
  try { return await Promise.race([p.then(() => true as const, () => true as const), late]); } finally { clearTimeout(timer); }
}

export function createScheduler(deps: SchedulerDeps) {
  let running = false;
  let inFlight = 0;
  let wake: (() => void) | null = null;
  let loopDone: Promise<void> | null = null;
  const active = new Set<Promise<void>>();
  /** Claimed recipients not yet written back, with their zone (their leases are renewed). */
  const inFlightIds = new Map<string, string>();
  let renewTimer: ReturnType<typeof setInterval> | null = null;
  /** Recipients in flight per destination domain (all zones together). */
  const domainLoad = new Map<string, number>();
  const perDomain = deps.perDomainInFlight ?? deps.perDomainConcurrency * 2;
  const isAnyDomainFull = () => [...domainLoad.values()].some((n) => n >= perDomain);
  const release = (domain: string, n: number) => {
    if (!n) return;
    inFlight -= n;
    const left = (domainLoad.get(domain) ?? 0) - n;
    if (left > 0) domainLoad.set(domain, left); else domainLoad.delete(domain);
    poke();
  };
  const writer = createOutcomeWriter({ recorder: deps.recorder, log: deps.log,
    onWritten: (ids) => { for (const id of ids) inFlightIds.delete(id); } });

  const poke = () => { const w = wake; wake = null; w?.(); };
  const sleep = (ms: number) => new Promise<void>((resolve) => {
    const t = setTimeout(() => { wake = null; resolve(); }, ms);
    wake = () => { clearTimeout(t); resolve(); };
  });

  async function runGroup(zone: string, domain: string, rcpts: StoredRecipient[]) {
    const waiting = new Set(rcpts.map((r) => r.id));
    try {
      await deps.delivery.deliverDomain(deps.store.zone(zone), domain, rcpts, deps.perDomainConcurrency, (a) => {
        waiting.delete(a.recipient.id);
        writer.record(zone, [a.hold ? applyHold(a.recipient, a.message, a.hold, deps.now()) : applyOutcome(a.recipient, a.message, a.outcome, deps.now(), deps.policy)]);
        release(domain, 1);
      });
    } catch (err) {
      deps.log.error("delivery group failed; the lease will bring it back", { domain, error: String((err as Error)?.stack ?? err) });
    } finally {
      // Attempted rows stay "in flight" until their outcome is written (writer.onWritten); the
      // others come back when their lease ends.
      for (const id of waiting) inFlightIds.delete(id);
      release(domain, waiting.size);
    }
  }

  async function claimAndStart(): Promise<number> {
    let claimed = 0;
    for (const zone of deps.store.zoneNames()) {
      const room = Math.min(deps.maxInFlight - inFlight, CLAIM_BATCH);
      if (room <= 0) break;
      // A row whose lease ran out while its attempt is still running comes back from claimDue
      // (which renews the lease): it must not be attempted twice.
      const skipDomains = [...domainLoad].filter(([, n]) => n >= perDomain).map(([d]) => d);
      const rows = (await deps.store.zone(zone).claimDue(deps.now(), room, deps.lease, { perDomain, skipDomains })).filter((r) => !inFlightIds.has(r.id));
      for (const r of rows) inFlightIds.set(r.id, zone);
      claimed += rows.length;
      inFlight += rows.length;
      const byDomain = new Map<string, StoredRecipient[]>();
      for (const r of rows) {
        domainLoad.set(r.rcptDomain, (domainLoad.get(r.rcptDomain) ?? 0) + 1);
        const list = byDomain.get(r.rcptDomain);
        if (list) list.push(r); else byDomain.set(r.rcptDomain, [r]);
      }
      for (const [domain, list] of byDomain) {
        const p = runGroup(zone, domain, list);
        active.add(p);
        void p.finally(() => active.delete(p));
      }
    }
    return claimed;
  }

  async function nextWait(): Promise<number> {
    let next: number | null = null;
    for (const zone of deps.store.zoneNames()) {
      const t = await deps.store.zone(zone).nextDueAt();
      if (t !== null && (next === null || t < next)) next = t;
    }
    return next === null ? IDLE_POLL_MS : Math.max(0, Math.min(IDLE_POLL_MS, next - deps.now()));
  }

  /** Extends the leases of every claim still in flight; one that was lost (taken over) is logged. */
  async function renew() {
    const byZone = new Map<string, string[]>();
    for (const [id, zone] of inFlightIds) { const list = byZone.get(zone); if (list) list.push(id); else byZone.set(zone, [id]); }
    for (const [zone, ids] of byZone) {
      try {
        const kept = await deps.store.zone(zone).renewClaims(ids, deps.now(), deps.lease);
        // Written back meanwhile, or taken over by another node after this one stalled past its lease.
        const lost = ids.filter((id) => inFlightIds.has(id)).length - kept.length;
        if (lost > 0) deps.log.warn("claims lost before their outcome was written (lease ran out)", { zone, count: lost });
      } catch (err) {
        deps.log.error("could not renew queue claims", { zone, error: String(err) });
      }
    }
  }

  async function loop() {
    while (running) {
      try {
        if (inFlight > 0 && deps.maxInFlight - inFlight < deps.maxInFlight * CLAIM_WHEN_FREE) { await sleep(IDLE_POLL_MS); continue; }
        const claimed = await claimAndStart();
        // Due rows of destinations at their limit are not claimable: wait for a slot to come back
        // (release pokes) rather than spin on them.
        if (claimed === 0) await sleep(Math.max(await nextWait(), isAnyDomainFull() ? SATURATED_POLL_MS : 0));
        else if (claimed < Math.min(CLAIM_BATCH, deps.maxInFlight / 4)) await Bun.sleep(CLAIM_COALESCE_MS);
        else await new Promise<void>((resolve) => setImmediate(resolve));
      } catch (err) {
        deps.log.error("scheduler loop error", { error: String(err) });
        await sleep(IDLE_POLL_MS);
      }
    }
  }

  return {
    /** Starts the loop; first takes back this node's own claims a crash left (at-least-once delivery). */
    async start() {
      if (running) return;
      running = true;
      for (const zone of deps.store.zoneNames()) {
        const n = await deps.store.zone(zone).releaseClaims(deps.now(), deps.lease.owner);
        if (n) deps.log.warn("took back recipients claimed before a restart", { zone, count: n });
      }
      renewTimer = setInterval(() => void renew(), Math.max(100, Math.floor(deps.lease.leaseMs / 3)));
      renewTimer.unref?.();
      loopDone = loop();
    },
    /** Wakes the loop at once (new mail was accepted, or a retry was forced). */
    poke,
    /** A recorder subscriber: accepted mail makes the queue worth a look now. */
    recorded(r: Recorded) { if (r.queued) poke(); },
    /**
     * Stops claiming, waits for attempts in flight (until `deadline`, a time from `now`, when one is
     * given) and writes their outcomes. Past the deadline `abort` ends the attempts still running (a
     * tarpitting MX must not hold a stop) and this node's claims left are released: due again at once,
     * for the next start or another node.
     */
    async stop(deadline?: number, abort?: () => void) {
      running = false;
      poke();
      await loopDone;
      const all = Promise.all([...active]);
      if (deadline === undefined) await all;
      else if (!(await settlesBy(all, deadline - deps.now()))) {
        deps.log.warn("shutdown grace over: attempts still running are ended and released", { recipients: inFlightIds.size });
        abort?.();
        await settlesBy(Promise.all([...active]), 1000);
      }
      await writer.flushAll();
      if (deadline !== undefined && inFlightIds.size > 0) {
        for (const zone of deps.store.zoneNames()) await deps.store.zone(zone).releaseClaims(deps.now(), deps.lease.owner);
      }
      if (renewTimer) clearInterval(renewTimer);
      renewTimer = null;
    },
    /** Resolves when nothing is in flight and every outcome is written (tests, benchmarks). */
    async drain() {
      while (inFlight > 0 || active.size > 0) await Promise.all([...active]);
      await writer.flushAll();
    },
    stats: () => ({ inFlight }),
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;

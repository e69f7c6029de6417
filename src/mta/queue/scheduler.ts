// The delivery loop: asks the store for the keys (recipient domains) with waiting mail, claims due
// recipients only of keys whose destination has room (its concurrency less its attempts in flight,
// within its rate; none while suspended), runs the attempts, and writes each outcome as soon as it
// is known (outcomes that finish together share a transaction), handing new events on. Each
// outcome also feeds the destination's controller (destinations.ts). A full or suspended
// destination costs nothing: its keys are passed over without reading their rows, and the loop
// sleeps until a slot comes back (release pokes), a destination reopens, or mail falls due.
import type { ClaimLease, Store, StoredRecipient } from "../../core/store-port.ts";
import type { Logger } from "../../log.ts";
import type { Recorded, Recorder } from "../../core/recorder.ts";
import type { Delivery } from "../delivery/attempt.ts";
import { applyHold, applyOutcome, type QueuePolicy } from "./policy.ts";
import { createOutcomeWriter } from "./writer.ts";
import type { DestinationState, DestinationTable } from "./destinations.ts";
import { createLanes } from "./lanes.ts";
import { planClaims } from "./claim-plan.ts";

const IDLE_POLL_MS = 1_000;
/** After a small claim, wait this long so that new mail is claimed in batches, not one row per transaction. */
const CLAIM_COALESCE_MS = 10;
/** Rows per claim at most: a claim is one transaction; a bigger room is filled by several, with a turn of the event loop between them. */
const CLAIM_BATCH = 100;
/** How often the destinations' state is published for `postern queue destinations` and the console. */
const PUBLISH_MS = 1_000;
/** Another node's published state counts while it is this recent (a stopped node's does not). */
const OTHERS_FRESH_MS = 5 * PUBLISH_MS;

export interface SchedulerDeps {
  store: Store;
  delivery: Delivery;
  policy: QueuePolicy;
  now: () => number;
  log: Logger;
  /** Recipients in flight at once (claimed, not yet written back), all destinations together. */
  maxInFlight: number;
  recorder: Recorder;
  /**
   * This node's claims: renewed every third of the lease while their attempts run, so a live claim
   * never ends, and a killed node's claims go to the other nodes soon after it died.
   */
  lease: ClaimLease;
  destinations: DestinationTable;
}


/** True when `p` settled within `ms` (never rejects: attempts catch their own errors). */
async function settlesBy(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => { timer = setTimeout(() => resolve(false), Math.max(0, ms)); });
  try { return await Promise.race([p.then(() => true as const, () => true as const), late]); } finally { clearTimeout(timer); }
}

export function createScheduler(deps: SchedulerDeps) {
  const table = deps.destinations;
  let running = false;
  let inFlight = 0;
  let wake: (() => void) | null = null;
  let loopDone: Promise<void> | null = null;
  const active = new Set<Promise<void>>();
  /** Claimed recipients not yet written back, with their zone (their leases are renewed). */
  const inFlightIds = new Map<string, string>();
  let renewTimer: ReturnType<typeof setInterval> | null = null;
  let publishTimer: ReturnType<typeof setInterval> | null = null;
  /** The earliest due time among keys whose destination had room at the last look (null: none). */
  let nextDue: number | null = null;
  let claimTurn = 0;
  const writer = createOutcomeWriter({ recorder: deps.recorder, log: deps.log,
    onWritten: (ids) => { for (const id of ids) inFlightIds.delete(id); } });

  const poke = () => { const w = wake; wake = null; w?.(); };
  const sleep = (ms: number) => new Promise<void>((resolve) => {
    const t = setTimeout(() => { wake = null; resolve(); }, ms);
    wake = () => { clearTimeout(t); resolve(); };
  });

  /** Attempts one recipient of `dest` and hands its outcome to the writer and the controller. */
  async function attempt(zone: string, dest: DestinationState, row: StoredRecipient) {
    let attempted = false;
    try {
      await deps.delivery.deliverDomain(deps.store.zone(zone), row.rcptDomain, [row], 1, (a) => {
        attempted = true;
        writer.record(zone, [a.hold ? applyHold(a.recipient, a.message, a.hold, deps.now()) : applyOutcome(a.recipient, a.message, a.outcome, deps.now(), deps.policy)]);
        // Held, or waiting for a warm-up's next hour: nothing reached the receiver, nothing to learn.
        table.finish(dest, a.hold || a.outcome.retryAt !== undefined ? null : a.outcome);
        inFlight--;
        poke();
      }, dest.dest.limits.messagesPerConnection);
    } catch (err) {
      deps.log.error("delivery attempt failed; the lease will bring it back", { domain: row.rcptDomain, error: String((err as Error)?.stack ?? err) });
    } finally {
      // An attempted row stays "in flight" until its outcome is written (writer.onWritten); one
      // that got no outcome comes back when its lease ends.
      if (!attempted) giveBack(zone, dest, [row]);
    }
  }

  function giveBack(_zone: string, dest: DestinationState, rows: StoredRecipient[]) {
    for (const r of rows) { inFlightIds.delete(r.id); deps.delivery.unprepare(r.id); table.finish(dest, null); }
    inFlight -= rows.length;
    poke();
  }

  /**
   * Rows a lane hands back because their destination has no room now (suspended, or its connections
   * taken by the zone's other nodes): due again at once, for another node or for this one when room
   * comes back. Left to their lease they would wait it out (30 s by default) while nothing else
   * could send them.
   */
  function handBack(zone: string, dest: DestinationState, rows: StoredRecipient[]) {
    giveBack(zone, dest, rows);
    const p = deps.store.zone(zone).releaseClaims(deps.now(), deps.lease.owner, rows.map((r) => r.id)).then(() => undefined, (err) => {
      deps.log.warn("could not hand claims back; their lease brings them back", { zone, error: String(err) });
    });
    track(p);
  }

  /** Keeps a promise the scheduler waits for on stop and drain. */
  function track(p: Promise<void>) { active.add(p); void p.finally(() => active.delete(p)); }

  const lanes = createLanes({ table, attempt, giveBack: handBack, prepare: (zone, row) => deps.delivery.prepare(deps.store.zone(zone), row), track });

  /** The claims of one zone: keys due now whose destination has room share that room (claim-plan.ts). */
  async function claimZone(zone: string, room: number): Promise<number> {
    const z = deps.store.zone(zone);
    const now = deps.now();
    // A key whose MX look-up runs has no destination yet: onResolved pokes.
    const plan = planClaims({ keys: await z.waitingKeys(), destOf: (key) => table.of(key) ?? undefined, roomOf: (d) => table.room(d), room, now, turn: ++claimTurn });
    const { wants, destOf } = plan;
    if (plan.nextDue !== null && (nextDue === null || plan.nextDue < nextDue)) nextDue = plan.nextDue;
    if (wants.length === 0) return 0;
    // A row whose lease ran out while its attempt is still running comes back: never attempt it twice.
    const rows = (await z.claimKeys(now, deps.lease, wants)).filter((r) => !inFlightIds.has(r.id));
    const byKey = new Map<string, StoredRecipient[]>();
    for (const r of rows) {
      inFlightIds.set(r.id, zone);
      const list = byKey.get(r.rcptDomain);
      if (list) list.push(r); else byKey.set(r.rcptDomain, [r]);
    }
    inFlight += rows.length;
    for (const [key, list] of byKey) {
      const dest = destOf.get(key)!;
      table.start(dest, list.length);
      lanes.enqueue(dest, zone, list);
    }
    return rows.length;
  }

  async function claimAndStart(): Promise<number> {
    let claimed = 0;
    nextDue = null;
    for (const zone of deps.store.zoneNames()) {
      const room = Math.min(deps.maxInFlight - inFlight, CLAIM_BATCH);
      if (room <= 0) break;
      claimed += await claimZone(zone, room);
    }
    return claimed;
  }

  /** How long to sleep with nothing claimable: until mail of a destination with room falls due, or one reopens. */
  function nextWait(): number {
    const times = [nextDue, table.nextOpening()].filter((t): t is number => t !== null);
    return times.length ? Math.max(0, Math.min(IDLE_POLL_MS, Math.min(...times) - deps.now())) : IDLE_POLL_MS;
  }

  /** Publishes this node's destinations and reads the other nodes' (a zone's nodes share a destination's connections). */
  async function publish() {
    const list = table.snapshot();
    /** Per other node and destination (a node serving several zones publishes into each). */
    const seen = new Map<string, { name: string; inFlight: number }>();
    for (const zone of deps.store.zoneNames()) {
      try {
        const z = deps.store.zone(zone);
        await z.publishDestinations(deps.lease.owner, deps.now(), list);
        for (const p of await z.publishedDestinations()) {
          if (p.owner === deps.lease.owner || deps.now() - p.updatedAt > OTHERS_FRESH_MS) continue;
          seen.set(`${p.owner}\u0000${p.snapshot.name}`, { name: p.snapshot.name, inFlight: p.snapshot.inFlight });
        }
      } catch (err) {
        deps.log.warn("could not publish the destinations' state", { zone, error: String(err) });
      }
    }
    const others = new Map<string, number>();
    for (const { name, inFlight: n } of seen.values()) others.set(name, (others.get(name) ?? 0) + n);
    table.setOthers(others);
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
        if (inFlight >= deps.maxInFlight) { await sleep(IDLE_POLL_MS); continue; }
        const claimed = await claimAndStart();
        // Due rows of destinations at their limit are not claimable: wait for a slot to come back
        // (release pokes) rather than spin on them.
        if (claimed === 0) await sleep(nextWait());
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
      publishTimer = setInterval(() => void publish(), PUBLISH_MS);
      publishTimer.unref?.();
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
      if (publishTimer) clearInterval(publishTimer);
      renewTimer = publishTimer = null;
      await publish();
    },
    /** Resolves when nothing is in flight and every outcome is written (tests, benchmarks). */
    async drain() {
      while (inFlight > 0 || active.size > 0) await Promise.all([...active]);
      await writer.flushAll();
    },
    stats: () => ({ inFlight }),
    /** Each destination as this node sees it now (the snapshot it publishes). */
    destinations: () => table.snapshot(),
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;

// One lane per destination: the recipients claimed for it wait here for one of its workers, and it
// runs at most as many workers as the destination allows now (its concurrency, one while
// throttled, none while suspended). The scheduler claims up to twice that, so a worker that ends
// an attempt starts the next at once instead of waiting for a claim; the connections open to the
// destination stay bounded by the workers. Rows a destination cannot run now (suspended, or its
// connections taken by the zone's other nodes) are handed back, due again at once. The rows next in
// line, one per worker, have their messages built while the workers' connections wait for replies
// (delivery/lookahead.ts).
import type { StoredRecipient } from "../../core/store-port.ts";
import type { DestinationState, DestinationTable } from "./destinations.ts";

interface Lane { dest: DestinationState; queue: { zone: string; row: StoredRecipient }[]; workers: number }

export interface LaneDeps {
  table: DestinationTable;
  /** Attempts one recipient and writes its outcome (never throws). */
  attempt: (zone: string, dest: DestinationState, row: StoredRecipient) => Promise<void>;
  /** Gives back claimed rows that will not be attempted now (the store makes them due again). */
  giveBack: (zone: string, dest: DestinationState, rows: StoredRecipient[]) => void;
  /** Builds a row's message ahead of its attempt (idempotent). */
  prepare?: (zone: string, row: StoredRecipient) => void;
  /** Keeps a worker's promise (the scheduler waits for them on stop and drain). */
  track: (p: Promise<void>) => void;
}

export function createLanes(deps: LaneDeps) {
  const lanes = new Map<DestinationState, Lane>();

  /** The next row of each worker is built while the worker's current attempt waits on the wire. */
  function buildAhead(lane: Lane) {
    if (!deps.prepare) return;
    for (let i = 0; i < Math.min(lane.workers, lane.queue.length); i++) deps.prepare(lane.queue[i]!.zone, lane.queue[i]!.row);
  }

  async function work(lane: Lane) {
    try {
      while (lane.queue.length && lane.workers <= deps.table.allowedNow(lane.dest)) {
        const { zone, row } = lane.queue.shift()!;
        buildAhead(lane);
        lane.dest.running++;
        try { await deps.attempt(zone, lane.dest, row); } finally { lane.dest.running--; }
      }
    } finally {
      lane.workers--;
      pump(lane);
    }
  }

  function pump(lane: Lane) {
    const allowed = deps.table.allowedNow(lane.dest);
    while (lane.workers < allowed && lane.queue.length) {
      lane.workers++;
      deps.track(work(lane));
    }
    if (allowed === 0 && lane.workers === 0 && lane.queue.length) {
      const byZone = new Map<string, StoredRecipient[]>();
      for (const { zone, row } of lane.queue.splice(0)) byZone.set(zone, [...(byZone.get(zone) ?? []), row]);
      for (const [zone, rows] of byZone) deps.giveBack(zone, lane.dest, rows);
    }
    if (!lane.queue.length && !lane.workers) lanes.delete(lane.dest);
  }

  return {
    /** Hands claimed rows of `dest` to its lane. */
    enqueue(dest: DestinationState, zone: string, rows: StoredRecipient[]) {
      let lane = lanes.get(dest);
      if (!lane) lanes.set(dest, (lane = { dest, queue: [], workers: 0 }));
      for (const row of rows) lane.queue.push({ zone, row });
      pump(lane);
      buildAhead(lane);
    },
  };
}

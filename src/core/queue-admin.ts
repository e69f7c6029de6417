// What administering the outbound queue per destination offers the console (a port: the console
// may not import the MTA; mta/queue/admin.ts implements it): waiting recipients by destination,
// retry now, purge. `sender` limits every call to messages one domain sent (a domain
// key sees and touches only its own mail); null means every domain.

export interface QueueDestination {
  /** The recipients' domain (where the mail is going). */
  destination: string;
  queued: number;
  deferred: number;
  /** When the oldest waiting recipient of this destination was accepted (ms). */
  oldestAt: number;
  /** Since when its oldest recipient has been waiting to go out: the accept time, or for mail never
   *  tried its due time when later (scheduled mail is not late before it is due: the queue-age alert). */
  waitingSince: number;
  nextAttemptAt: number;
  /** The last remote reply seen for this destination, if any attempt was made. */
  lastResponse: string | null;
}

/** One destination (docs/shaping.md): the `postern queue destinations --json` row, the console's and /metrics' source. */
export interface DestinationView {
  name: string;
  provider: string | null;
  waiting: number;
  in_flight: number;
  /** Attempts allowed at once now (0 while suspended, 1 while throttled), all nodes together. */
  concurrency: number;
  max_concurrency: number;
  /** ISO time, or null. */
  suspended_until: string | null;
  /** The last reply that lowered the concurrency or suspended the destination. */
  last_throttle: string | null;
  /** Each MX host the destination was last sent to, with the TLS policy in force for it (docs/outbound-tls.md). */
  mx: { host: string; tls_policy: "dane" | "mta-sts" | "opportunistic" }[];
}

/** The part of the queue administration (mta/queue/admin.ts) the console uses, per destination. */
export interface DestinationQueueAdmin {
  byDestination(sender: string | null): Promise<QueueDestination[]>;
  /** Every destination with mail waiting or recently attempted, busiest first. */
  destinations(): Promise<DestinationView[]>;
  /** Makes every waiting recipient for `destination` due now; returns how many. */
  retryDestination(destination: string, sender: string | null): Promise<number>;
  /** Fails every waiting recipient for `destination` (with a failed event each); returns how many. */
  purgeDestination(destination: string, sender: string | null): Promise<number>;
}

/**
 * The queue of the mail `senders` sent (null: every domain's): a tenant's caller sees and touches
 * only its own domains' mail (docs/tenants.md). The port takes one sender a call, so each is asked
 * and the rows of one destination are merged as the port merges recipients.
 */
export function queueOfSenders(admin: DestinationQueueAdmin, senders: readonly string[] | null) {
  const each = async (act: (sender: string | null) => Promise<number>) => {
    if (senders === null) return act(null);
    let n = 0;
    for (const s of senders) n += await act(s);
    return n;
  };
  return {
    async byDestination(): Promise<QueueDestination[]> {
      if (senders === null) return admin.byDestination(null);
      const by = new Map<string, QueueDestination>();
      for (const r of (await Promise.all(senders.map((s) => admin.byDestination(s)))).flat()) {
        const d = by.get(r.destination);
        by.set(r.destination, !d ? { ...r } : { ...d, queued: d.queued + r.queued, deferred: d.deferred + r.deferred, oldestAt: Math.min(d.oldestAt, r.oldestAt),
          waitingSince: Math.min(d.waitingSince, r.waitingSince), nextAttemptAt: Math.min(d.nextAttemptAt, r.nextAttemptAt), lastResponse: r.lastResponse ?? d.lastResponse });
      }
      return [...by.values()].sort((a, b) => b.queued + b.deferred - (a.queued + a.deferred));
    },
    retry: (destination: string) => each((s) => admin.retryDestination(destination, s)),
    purge: (destination: string) => each((s) => admin.purgeDestination(destination, s)),
  };
}

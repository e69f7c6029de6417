// The queue by key (the recipient domain) in <zone>.sqlite: keys with waiting mail come from
// pending_domains (kept by triggers), each key's first due time and its due rows from the index
// recipients_key_due (rcpt_domain, next_attempt_at) over pending rows, so a claim reads the rows
// it takes and one more (INDEXED BY: whatever the statistics say, an index over next_attempt_at
// alone would walk every key's due rows), whatever waits elsewhere (parked rows sit after the due ones). The
// destinations' published state is one JSON row per (destination, node).
import type { Database } from "bun:sqlite";
import type { DestinationQueueStore, DestinationSnapshot } from "../../core/destination-store.ts";
import { toRecipient } from "./queue.ts";
import type { GroupCommit } from "./group-commit.ts";

type Row = Record<string, unknown>;
const PENDING = "status IN ('queued', 'deferred')";

/** Claims share the file's commits (`commits`) with accepts and outcomes: the same rows' pages. */
export function createDestinationQueue(db: Database, commits: GroupCommit): DestinationQueueStore {
  const keys = db.query(`SELECT domain AS key, (SELECT next_attempt_at FROM recipients INDEXED BY recipients_key_due WHERE ${PENDING} AND rcpt_domain = pending_domains.domain
    ORDER BY next_attempt_at LIMIT 1) AS due FROM pending_domains WHERE n > 0`);
  // The longest due ?2 rows and the most recently due ?6 (both ends of the key's due rows in the
  // index); where the two overlap (fewer due rows than asked) the union takes each row once.
  const due = `SELECT rowid FROM recipients INDEXED BY recipients_key_due WHERE ${PENDING} AND rcpt_domain = ?5 AND next_attempt_at <= ?1`;
  const claimKey = db.query(`UPDATE recipients SET next_attempt_at = ?1 + ?3, claimed = 1, claim_owner = ?4 WHERE rowid IN (
      SELECT rowid FROM (${due} ORDER BY rcpt_domain, next_attempt_at LIMIT ?2)
      UNION SELECT rowid FROM (${due} ORDER BY rcpt_domain DESC, next_attempt_at DESC LIMIT ?6))
    RETURNING *`);
  const clear = db.query("DELETE FROM destination_state WHERE owner = ?");
  const put = db.query("INSERT INTO destination_state (name, owner, snapshot, updated_at) VALUES (?, ?, ?, ?)");
  return {
    async waitingKeys() {
      return (keys.all() as Row[]).filter((r) => r.due !== null).map((r) => ({ key: r.key as string, nextDueAt: r.due as number }));
    },
    async waitingByKey() {
      return db.query("SELECT domain AS key, n AS count FROM pending_domains WHERE n > 0 ORDER BY n DESC, domain").all() as { key: string; count: number }[];
    },
    async claimKeys(now, lease, wants) {
      const run = () => wants.flatMap((w) => {
        const newest = Math.min(w.limit, w.newest ?? 0);
        return w.limit > 0 ? (claimKey.all(now, w.limit - newest, lease.leaseMs, lease.owner, w.key, newest) as Row[]) : [];
      });
      return (await commits.run(() => run().map(toRecipient))).sort((a, b) => a.nextAttemptAt - b.nextAttemptAt);
    },
    async publishDestinations(owner, now, list: DestinationSnapshot[]) {
      db.transaction(() => {
        clear.run(owner);
        for (const d of list) put.run(d.name, owner, JSON.stringify(d), now);
      }).immediate();
    },
    async publishedDestinations() {
      return (db.query("SELECT owner, updated_at, snapshot FROM destination_state ORDER BY name, owner").all() as Row[])
        .map((r) => ({ owner: r.owner as string, updatedAt: r.updated_at as number, snapshot: JSON.parse(r.snapshot as string) as DestinationSnapshot }));
    },
  };
}

// The queue by key (the recipient domain) in a zone schema. The keys with waiting mail and each
// key's first due time come from a loose index scan of recipients_key_due (rcpt_domain,
// next_attempt_at) over pending rows: one probe per key, whatever waits behind it. A claim takes,
// per key, the due rows it needs (FOR UPDATE SKIP LOCKED, as claimDue) and reads no other row
// (test/store/postgres/destinations.test.ts checks PostgreSQL's plan).
import type { ClaimWant, DestinationQueueStore, DestinationSnapshot } from "../../core/destination-store.ts";
import { toRecipient } from "../sqlite/queue.ts";
import { rows, type Sql } from "./db.ts";
import { recipientCounts } from "./queue-counts.ts";

/**
 * Pending, written so that only recipients_key_due's predicate follows from it (statuses are lower
 * case): were it `status IN (…)`, recipients_due (next_attempt_at) would serve these queries too,
 * and the planner, not knowing how a key's rows lie in time, may walk it filtering out every other
 * key's due rows (20,000 read to return 5 in test/store/postgres/destinations.test.ts).
 */
const PENDING = "lower(status) IN ('queued', 'deferred')";

const WAITING_KEYS = `WITH RECURSIVE k AS (
    (SELECT rcpt_domain, next_attempt_at FROM recipients WHERE ${PENDING} ORDER BY rcpt_domain, next_attempt_at LIMIT 1)
    UNION ALL
    SELECT n.rcpt_domain, n.next_attempt_at FROM k CROSS JOIN LATERAL (SELECT rcpt_domain, next_attempt_at FROM recipients
      WHERE ${PENDING} AND rcpt_domain > k.rcpt_domain ORDER BY rcpt_domain, next_attempt_at LIMIT 1) n)
  SELECT rcpt_domain AS key, next_attempt_at AS due FROM k`;

/** One arm per key (a LATERAL join over unnest locks no better and plans worse), limits as literals. */
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;
function claimKeysSql(wants: ClaimWant[]): string {
  // A locking clause may not sit in a UNION's arm: each arm is its own CTE, the union reads them.
  // Two arms per key: the longest due rows and the most recently due (claimKeys' `newest`); a row
  // both take (fewer due than asked) is picked once by the UNION.
  const arm = (name: string, w: ClaimWant, order: string, limit: number) => `${name} AS MATERIALIZED (SELECT id FROM recipients WHERE ${PENDING}
    AND rcpt_domain = ${literal(w.key)} AND next_attempt_at <= $1 ORDER BY ${order} LIMIT ${Math.floor(limit)} FOR UPDATE SKIP LOCKED)`;
  const newest = (w: ClaimWant) => Math.min(w.limit, w.newest ?? 0);
  const arms = wants.flatMap((w, i) => [arm(`a${i}`, w, "rcpt_domain, next_attempt_at", w.limit - newest(w)),
    ...(newest(w) > 0 ? [arm(`b${i}`, w, "rcpt_domain DESC, next_attempt_at DESC", newest(w))] : [])]);
  const reads = wants.flatMap((w, i) => [`SELECT id FROM a${i}`, ...(newest(w) > 0 ? [`SELECT id FROM b${i}`] : [])]);
  return `WITH ${arms.join(", ")}, picked AS (${reads.join(" UNION ")})
    UPDATE recipients r SET next_attempt_at = $1 + $2, owner = $3 FROM picked WHERE r.id = picked.id RETURNING r.*`;
}

export function createDestinationQueue(sql: Sql): DestinationQueueStore {
  return {
    async waitingKeys() {
      return (await rows(sql, WAITING_KEYS)).map((r) => ({ key: r.key as string, nextDueAt: Number(r.due) }));
    },
    async waitingByKey() {
      return (await recipientCounts(sql)).pendingByKey;
    },
    async claimKeys(now, lease, wants) {
      const list = wants.filter((w) => w.limit > 0);
      if (list.length === 0) return [];
      const got = await rows(sql, claimKeysSql(list), [now, lease.leaseMs, lease.owner]);
      return got.sort((a, b) => (a.next_attempt_at as number) - (b.next_attempt_at as number) || (a.seq as number) - (b.seq as number)).map(toRecipient);
    },
    async publishDestinations(owner, now, list: DestinationSnapshot[]) {
      await sql.begin(async (tx) => {
        await rows(tx, "DELETE FROM destination_state WHERE owner = $1", [owner]);
        if (list.length) await rows(tx, `INSERT INTO destination_state (name, owner, snapshot, updated_at)
          SELECT u.name, $1, u.snapshot::jsonb, $2 FROM unnest($3::text[], $4::text[]) AS u(name, snapshot)`,
          [owner, now, list.map((d) => d.name), list.map((d) => JSON.stringify(d))]);
      });
    },
    async publishedDestinations() {
      return (await rows(sql, "SELECT owner, updated_at, snapshot FROM destination_state ORDER BY name, owner"))
        .map((r) => ({ owner: r.owner as string, updatedAt: Number(r.updated_at), snapshot: (typeof r.snapshot === "string" ? JSON.parse(r.snapshot) : r.snapshot) as DestinationSnapshot }));
    },
  };
}

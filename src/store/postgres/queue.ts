// The outbound queue in a zone schema: recipients that are queued or deferred. Several nodes claim
// from it at once: FOR UPDATE SKIP LOCKED lets each take rows no other claimer holds, and a claim
// sets `owner` (the node id) and moves next_attempt_at forward by the lease, so a killed node's
// rows are due again for every node once its lease ends. A claim is live while owner is set and
// its lease has not ended.
import type { ClaimFairness, ClaimLease, RecipientUpdate, StoredRecipient } from "../../core/store-port.ts";
import { toRecipient } from "../sqlite/queue.ts";
import { exec, one, rows, type Row, type Sql } from "./db.ts";
import { recipientCounts } from "./queue-counts.ts";
import type { Writes } from "./writes.ts";

const PENDING = "status IN ('queued', 'deferred')";
/** Not being attempted: never claimed, or its claimer's lease ran out. */
const UNCLAIMED = "(owner IS NULL OR next_attempt_at <= $1)";
/** Due rows looked at (and locked) per claimed row when a claim is fair. */
const FAIR_SCAN_FACTOR = 8;

export function createQueueStatements(sql: Sql) {
  // The rows are picked in a materialized CTE, run once. As `WHERE id IN (SELECT ... LIMIT ... FOR UPDATE SKIP LOCKED)`
  // the planner may put the subquery inside a nested loop and run it again for each row (statistics of a table that
  // was near empty when analysed): each run skips the rows already taken and picks more, and the claim takes every
  // due row whatever its limit (a known PostgreSQL pitfall; test/store/postgres/queue.test.ts reproduces it).
  const claimPlain = `WITH picked AS MATERIALIZED (
      SELECT id FROM recipients WHERE ${PENDING} AND next_attempt_at <= $1 ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED)
    UPDATE recipients r SET next_attempt_at = $1 + $3, owner = $4 FROM picked WHERE r.id = picked.id RETURNING r.*`;
  // Window functions cannot lock rows: lock a window of due rows first (skipping other claimers'),
  // then keep at most $5 of each domain.
  const claimFair = `WITH scanned AS MATERIALIZED (
      SELECT id, rcpt_domain, next_attempt_at FROM recipients WHERE ${PENDING} AND next_attempt_at <= $1
        AND rcpt_domain <> ALL($6::text[]) ORDER BY next_attempt_at LIMIT $7 FOR UPDATE SKIP LOCKED),
    picked AS (SELECT id FROM (SELECT id, next_attempt_at, row_number() OVER (PARTITION BY rcpt_domain ORDER BY next_attempt_at) AS n
      FROM scanned) s WHERE n <= $5 ORDER BY next_attempt_at LIMIT $2)
    UPDATE recipients r SET next_attempt_at = $1 + $3, owner = $4 FROM picked WHERE r.id = picked.id RETURNING r.*`;
  return {
    async claimDue(now: number, limit: number, lease: ClaimLease, fair?: ClaimFairness): Promise<StoredRecipient[]> {
      const list = fair
        ? await rows(sql, claimFair, [now, limit, lease.leaseMs, lease.owner, fair.perDomain, fair.skipDomains, limit * FAIR_SCAN_FACTOR])
        : await rows(sql, claimPlain, [now, limit, lease.leaseMs, lease.owner]);
      return list.sort((a, b) => (a.next_attempt_at as number) - (b.next_attempt_at as number) || (a.seq as number) - (b.seq as number)).map(toRecipient);
    },
    async stats(now: number) {
      // Counters (queue-counts.ts), not a walk of the waiting rows; the due count reads due rows only.
      const counts = await recipientCounts(sql);
      const by = (s: string) => counts.byStatus.get(s) ?? 0;
      const due = (await one(sql, `SELECT COUNT(*)::int AS n FROM recipients WHERE ${PENDING} AND next_attempt_at <= $1`, [now]))!.n as number;
      const byDomain = counts.pendingByKey.slice(0, 20).map((k) => ({ domain: k.key, count: k.count }));
      return { queued: by("queued"), deferred: by("deferred"), due, delivered: by("delivered"), failed: by("failed"), byDomain };
    },
    async list(limit: number): Promise<StoredRecipient[]> {
      return (await rows(sql, `SELECT * FROM recipients WHERE ${PENDING} ORDER BY next_attempt_at, seq LIMIT $1`, [limit])).map(toRecipient);
    },
    async retryNow(id: string, now: number): Promise<number> {
      // A row with a live claim is being attempted right now: making it due again would send it twice.
      return exec(sql, `UPDATE recipients SET next_attempt_at = $1, owner = NULL WHERE ${PENDING} AND ${UNCLAIMED} AND (id = $2 OR message_id = $2)`, [now, id]);
    },
    /** Fails the named rows still waiting and not being attempted (their outcome is about to be written); returns their ids. */
    async purge(tx: Sql, now: number, items: { id: string; lastResponse: string }[]): Promise<string[]> {
      if (items.length === 0) return [];
      const list = await rows(tx, `UPDATE recipients r SET status = 'failed', last_response = u.response, updated_at = $1, owner = NULL
        FROM unnest($2::text[], $3::text[]) AS u(id, response) WHERE r.id = u.id AND ${PENDING} AND ${UNCLAIMED} RETURNING r.id`, [now, items.map((i) => i.id), items.map((i) => i.lastResponse)]);
      return list.map((r) => r.id as string);
    },
    /** Extends the leases `lease.owner` still holds on `ids`; returns the ids renewed. */
    async renew(ids: string[], now: number, lease: ClaimLease): Promise<string[]> {
      if (ids.length === 0) return [];
      return (await rows(sql, `UPDATE recipients SET next_attempt_at = $1 + $2 WHERE id = ANY($4::text[]) AND owner = $3 AND ${PENDING} RETURNING id`,
        [now, lease.leaseMs, lease.owner, ids])).map((r) => r.id as string);
    },
    /** Takes back this node's own claims (a restart after a crash, or `ids` it will not attempt); other nodes' run out by their lease. */
    async releaseClaims(now: number, owner: string, ids?: string[]): Promise<number> {
      if (ids) return ids.length ? exec(sql, `UPDATE recipients SET owner = NULL, next_attempt_at = $1 WHERE owner = $2 AND ${PENDING}
        AND id = ANY($3::text[])`, [now, owner, ids]) : 0;
      return exec(sql, `UPDATE recipients SET owner = NULL, next_attempt_at = $1 WHERE owner = $2 AND ${PENDING}`, [now, owner]);
    },
    /** Live claims (lease not ended) per owner. */
    async held(now: number): Promise<{ owner: string; count: number }[]> {
      return (await rows(sql, `SELECT owner, COUNT(*)::int AS count FROM recipients WHERE owner IS NOT NULL AND ${PENDING} AND next_attempt_at > $1
        GROUP BY owner`, [now])) as { owner: string; count: number }[];
    },
    async nextDueAt(): Promise<number | null> {
      const r = await one(sql, `SELECT MIN(next_attempt_at) AS t FROM recipients WHERE ${PENDING}`);
      return (r?.t as number | null) ?? null;
    },
  };
}

/**
 * Makes `w` commit without waiting for the disk when it writes back delivery attempts: every row
 * it updates is claimed (pending, with an owner). Such a commit survives a kill -9 of the node
 * (PostgreSQL has it); only a crash of PostgreSQL can lose the last ones, and then the rows are
 * still claimed and attempted again when the lease ends: delivered twice, never lost. Waiting for
 * the WAL flush (1-2 ms here, and the event counter's lock held meanwhile) only lengthened the
 * window in which a kill -9 delivers twice. Any other write stays synchronous: a bounce or
 * complaint report's updates (of delivered rows, answered 250 to the reporter), tracking events
 * (an unsubscribe), whose loss nothing would repeat. WAL is written in order, so a later
 * synchronous commit (a send, the webhook cursor) also makes the outcomes before it durable.
 */
export function addOutcomeCommitMode(w: Writes, updates: RecipientUpdate[]): void {
  if (updates.length === 0) return;
  const ids = w.bind(updates.map((u) => u.id));
  w.setLocal("synchronous_commit", `CASE WHEN (SELECT COUNT(*) FROM recipients WHERE id = ANY(${ids}::text[]) AND owner IS NOT NULL AND ${PENDING})
    = ${w.bind(new Set(updates.map((u) => u.id)).size)}::bigint THEN 'off' ELSE 'on' END`);
}

/** Adds the writing back of attempt outcomes to `w`: each row's new state, its claim cleared. */
export function addRecipientUpdates(w: Writes, updates: RecipientUpdate[], now: number): void {
  if (updates.length === 0) return;
  const col = <K extends keyof RecipientUpdate>(k: K) => w.bind(updates.map((u) => u[k]));
  w.add(`UPDATE recipients r SET status = u.status, attempts = u.attempts, next_attempt_at = u.next, first_attempt_at = u.first,
      last_code = u.code, last_response = u.response, mx = u.mx, updated_at = ${w.bind(now)}::bigint, owner = NULL,
      source_ip = COALESCE(u.source_ip, r.source_ip), ip_pool = CASE WHEN u.source_ip IS NULL THEN r.ip_pool ELSE u.ip_pool END
    FROM unnest(${col("id")}::text[], ${col("status")}::text[], ${col("attempts")}::int[], ${col("nextAttemptAt")}::bigint[],
      ${col("firstAttemptAt")}::bigint[], ${col("lastCode")}::int[], ${col("lastResponse")}::text[], ${col("mx")}::text[],
      ${w.bind(updates.map((u) => u.sourceIp ?? null))}::text[], ${w.bind(updates.map((u) => u.ipPool ?? null))}::text[])
      AS u(id, status, attempts, next, first, code, response, mx, source_ip, ip_pool) WHERE r.id = u.id`);
}

export type { Row };

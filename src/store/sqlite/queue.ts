// The outbound queue inside <zone>.sqlite: recipients that are queued or deferred. A claim records
// its owner (claim_owner) and moves next_attempt_at forward by the lease, so a dead claimer's rows
// come back to any node when it ends; the owner renews the lease while it works.
import type { Database } from "bun:sqlite";
import { mergeKeyPages } from "./queue-merge.ts";
import type { ClaimFairness, ClaimLease, RecipientUpdate, StoredRecipient } from "../../core/store-port.ts";

type Row = Record<string, unknown>;

export const toRecipient = (r: Row): StoredRecipient => ({
  id: r.id as string, messageId: r.message_id as string, email: r.email as string, rcptDomain: r.rcpt_domain as string,
  kind: r.kind as StoredRecipient["kind"], status: r.status as StoredRecipient["status"], attempts: r.attempts as number,
  nextAttemptAt: r.next_attempt_at as number, firstAttemptAt: (r.first_attempt_at as number | null) ?? null,
  expiresAt: r.expires_at as number, lastCode: (r.last_code as number | null) ?? null,
  lastResponse: (r.last_response as string | null) ?? null, mx: (r.mx as string | null) ?? null, updatedAt: r.updated_at as number,
  ...(r.source_ip != null ? { sourceIp: r.source_ip as string, ipPool: (r.ip_pool as string | null) ?? null } : {}),
});

const PENDING = "status IN ('queued', 'deferred')";
// Reads in due order go key by key through recipients_key_due (the index over next_attempt_at alone
// is gone: it was written on every claim and outcome and read only by these, migrations.ts): a few
// look-ups per destination domain in pending_domains, never a walk of the waiting rows.
const KEY_DUE = "recipients INDEXED BY recipients_key_due";
export const DUE_ORDER_READS = {
  // One key's rows after (t, rowid) in due order: a walk of the index from there, however many
  // rows share one due time (a million scheduled for one instant).
  pageOfKey: `SELECT rowid AS rid, * FROM ${KEY_DUE} WHERE ${PENDING} AND rcpt_domain = ?1 AND (next_attempt_at, rowid) > (?2, ?3)
    ORDER BY next_attempt_at, rowid LIMIT ?4`,
  dueCount: `SELECT COALESCE(SUM((SELECT COUNT(*) FROM ${KEY_DUE} WHERE ${PENDING} AND rcpt_domain = d.domain
    AND next_attempt_at <= ?1)), 0) AS n FROM pending_domains d WHERE d.n > 0`,
  firstDue: `SELECT MIN((SELECT next_attempt_at FROM ${KEY_DUE} WHERE ${PENDING} AND rcpt_domain = d.domain
    ORDER BY next_attempt_at LIMIT 1)) AS t FROM pending_domains d WHERE d.n > 0`,
};

/** Due rows looked at per claimed row when a claim is fair: rows past a domain's share are passed over. */
const FAIR_SCAN_FACTOR = 8;

export function createQueueStatements(db: Database) {
  // claimDue (the claim over every key at once) is the contract's; the scheduler claims by key
  // (destinations.ts). Without an index over next_attempt_at alone it sorts the waiting rows.
  // By rowid: the update needs no second look-up by id.
  const claim = db.query(`UPDATE recipients SET next_attempt_at = ?1 + ?3, claimed = 1, claim_owner = ?4 WHERE rowid IN (
      SELECT rowid FROM recipients WHERE ${PENDING} AND next_attempt_at <= ?1 ORDER BY next_attempt_at LIMIT ?2)
    RETURNING *`);
  // The same walk of the due index, skipping domains at their limit and taking at most
  // ?5 rows per domain (row_number over the scanned window).
  const claimFair = db.query(`UPDATE recipients SET next_attempt_at = ?1 + ?3, claimed = 1, claim_owner = ?7 WHERE rowid IN (
      SELECT rowid FROM (SELECT rowid, row_number() OVER (PARTITION BY rcpt_domain ORDER BY next_attempt_at) AS n FROM (
        SELECT rowid, rcpt_domain, next_attempt_at FROM recipients WHERE ${PENDING} AND next_attempt_at <= ?1
          AND rcpt_domain NOT IN (SELECT value FROM json_each(?4)) ORDER BY next_attempt_at LIMIT ?6))
      WHERE n <= ?5 LIMIT ?2)
    RETURNING *`);
  // An update without a source address (no attempt went out) keeps the row's last one.
  const update = db.query(`UPDATE recipients SET status = ?1, attempts = ?2, next_attempt_at = ?3, first_attempt_at = ?4,
    last_code = ?5, last_response = ?6, mx = ?7, updated_at = ?8, claimed = 0, claim_owner = NULL,
    source_ip = COALESCE(?10, source_ip), ip_pool = CASE WHEN ?10 IS NULL THEN ip_pool ELSE ?11 END WHERE id = ?9`);
  const keys = db.query("SELECT domain FROM pending_domains WHERE n > 0");
  const pageOfKey = db.query(DUE_ORDER_READS.pageOfKey);
  const dueCount = db.query(DUE_ORDER_READS.dueCount);
  const firstDue = db.query(DUE_ORDER_READS.firstDue);
  const renew = db.query(`UPDATE recipients SET next_attempt_at = ?1 + ?2 WHERE claimed = 1 AND claim_owner = ?3 AND ${PENDING}
    AND id IN (SELECT value FROM json_each(?4)) RETURNING id`);
  const releaseIds = db.query(`UPDATE recipients SET claimed = 0, claim_owner = NULL, next_attempt_at = ?1 WHERE claimed = 1 AND claim_owner = ?2
    AND ${PENDING} AND id IN (SELECT value FROM json_each(?3))`);
  return {
    claimDue(now: number, limit: number, lease: ClaimLease, fair?: ClaimFairness): StoredRecipient[] {
      const run = () => (fair
        ? claimFair.all(now, limit, lease.leaseMs, JSON.stringify(fair.skipDomains), fair.perDomain, limit * FAIR_SCAN_FACTOR, lease.owner)
        : claim.all(now, limit, lease.leaseMs, lease.owner)) as Row[];
      return db.transaction(() => run().map(toRecipient)).immediate();
    },
    renew(ids: string[], now: number, lease: ClaimLease): string[] {
      if (!ids.length) return [];
      return (renew.all(now, lease.leaseMs, lease.owner, JSON.stringify(ids)) as Row[]).map((r) => r.id as string);
    },
    applyUpdates(updates: RecipientUpdate[], now: number) {
      for (const u of updates) {
        update.run(u.status, u.attempts, u.nextAttemptAt, u.firstAttemptAt, u.lastCode, u.lastResponse, u.mx, now, u.id, u.sourceIp ?? null, u.ipPool ?? null);
      }
    },
    stats(now: number) {
      // The counts are kept by triggers (migrations.ts): counting the rows here walked the whole table.
      const counts = db.query("SELECT status, n FROM recipient_counts").all() as Row[];
      const by = (s: string) => (counts.find((c) => c.status === s)?.n as number | undefined) ?? 0;
      const due = (dueCount.get(now) as Row).n as number;
      const byDomain = (db.query(`SELECT domain, n AS count FROM pending_domains WHERE n > 0
        ORDER BY n DESC, domain LIMIT 20`).all() as { domain: string; count: number }[]);
      return { queued: by("queued"), deferred: by("deferred"), due, delivered: by("delivered"), failed: by("failed"), byDomain };
    },
    /** The first `limit` waiting rows in due order, merged from each key's pages (queue-merge.ts). */
    list(limit: number): StoredRecipient[] {
      const domains = (keys.all() as Row[]).map((k) => k.domain as string);
      const rows = mergeKeyPages(domains, limit, (domain, after, n) => pageOfKey.all(domain, after.t, after.rid, n) as Row[]).map(toRecipient);
      return rows.sort((a, b) => a.nextAttemptAt - b.nextAttemptAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },
    retryNow(id: string, now: number): number {
      // A claimed row is being attempted right now: making it due again would send it twice.
      return db.query(`UPDATE recipients SET next_attempt_at = ? WHERE ${PENDING} AND claimed = 0 AND (id = ? OR message_id = ?)`).run(now, id, id).changes;
    },
    /**
     * Fails one waiting row not claimed by a running attempt (its outcome is about to be written);
     * true when it did. A claim whose lease ended belongs to a node that died: nothing attempts it.
     */
    purgeOne(id: string, now: number, lastResponse: string): boolean {
      return db.query(`UPDATE recipients SET status = 'failed', last_response = ?1, updated_at = ?2, claimed = 0, claim_owner = NULL
        WHERE id = ?3 AND ${PENDING} AND (claimed = 0 OR next_attempt_at <= ?2)`).run(lastResponse, now, id).changes > 0;
    },
    /** The owner's own claims (and ownerless ones, from before owners were recorded) are due now. */
    releaseClaims(now: number, owner: string, ids?: string[]): number {
      if (ids) return ids.length ? releaseIds.run(now, owner, JSON.stringify(ids)).changes : 0;
      // Two look-ups in the claims index: with "owner = ? OR owner IS NULL" SQLite walks the whole
      // due index instead (120-150 ms at start with 1,000,000 rows parked).
      return db.query(`UPDATE recipients SET claimed = 0, claim_owner = NULL, next_attempt_at = ?1 WHERE rowid IN (
          SELECT rowid FROM recipients WHERE claimed = 1 AND claim_owner = ?2
          UNION ALL SELECT rowid FROM recipients WHERE claimed = 1 AND claim_owner IS NULL) AND ${PENDING}`).run(now, owner).changes;
    },
    held(now: number): { owner: string; count: number }[] {
      return db.query(`SELECT claim_owner AS owner, COUNT(*) AS count FROM recipients WHERE claimed = 1 AND ${PENDING}
        AND next_attempt_at > ? GROUP BY claim_owner`).all(now) as { owner: string; count: number }[];
    },
    nextDueAt(): number | null {
      const r = firstDue.get() as Row;
      return (r.t as number | null) ?? null;
    },
  };
}

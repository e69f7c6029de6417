// The webhook outbox inside <zone>.sqlite: fan-out reads events after a stored cursor and writes
// outbox rows and the new cursor in one transaction, so no event is lost or fanned out twice.
import type { Database } from "bun:sqlite";
import type { MessageEvent } from "../../core/model.ts";
import type { ClaimLease, FormatScope, OutboxItem } from "../../core/store-port.ts";
import { toEvent } from "./events.ts";

type Row = Record<string, unknown>;

export const toItem = (r: Row): OutboxItem => ({
  id: r.id as string, url: r.url as string, format: r.format as OutboxItem["format"], targetId: (r.target_id as string | null) ?? null,
  domain: r.domain as string, payload: r.payload as string, attempts: r.attempts as number, nextAttemptAt: r.next_attempt_at as number,
  status: r.status as OutboxItem["status"], lastError: (r.last_error as string | null) ?? null, createdAt: r.created_at as number,
});

export function createOutboxStatements(db: Database) {
  const ins = db.query(`INSERT INTO outbox (id, url, format, target_id, domain, payload, attempts, next_attempt_at, status, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, 0, ?, 'pending', ?, ?)`);
  const setCursor = db.query("INSERT INTO cursors (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value");
  // Due rows, at most ?4 per URL and none of the URLs in ?5 (a JSON array): one target's backlog
  // never fills a claim that other targets' items are waiting behind.
  // A claim records its owner; another node's claim is claimable once its lease (next_attempt_at) ended.
  const claim = db.query(`UPDATE outbox SET next_attempt_at = ?1 + ?3, claimed = 1, claim_owner = ?6 WHERE id IN (
    SELECT id FROM (SELECT id, next_attempt_at AS t, ROW_NUMBER() OVER (PARTITION BY url ORDER BY next_attempt_at) AS n
      FROM outbox WHERE status = 'pending' AND next_attempt_at <= ?1 AND url NOT IN (SELECT value FROM json_each(?5)))
    WHERE n <= ?4 ORDER BY t LIMIT ?2) RETURNING *`);
  return {
    cursor(name: string): number {
      return ((db.query("SELECT value FROM cursors WHERE name = ?").get(name) as Row | null)?.value as number | undefined) ?? 0;
    },
    eventsAfter(position: number, limit: number): { position: number; event: MessageEvent }[] {
      return (db.query("SELECT * FROM events WHERE seq > ? ORDER BY seq LIMIT ?").all(position, limit) as Row[])
        .map((r) => ({ position: r.seq as number, event: toEvent(r) }));
    },
    /** Compare-and-set on the cursor: two nodes fanning out the same events write them once. */
    enqueue(items: OutboxItem[], cursor: { name: string; from: number; to: number }): boolean {
      return db.transaction(() => {
        const at = ((db.query("SELECT value FROM cursors WHERE name = ?").get(cursor.name) as Row | null)?.value as number | undefined) ?? 0;
        if (at !== cursor.from) return false;
        for (const i of items) ins.run(i.id, i.url, i.format, i.targetId, i.domain, i.payload, i.nextAttemptAt, i.createdAt, i.createdAt);
        setCursor.run(cursor.name, cursor.to);
        return true;
      }).immediate();
    },
    enqueueItems(items: OutboxItem[]) {
      db.transaction(() => { for (const i of items) ins.run(i.id, i.url, i.format, i.targetId, i.domain, i.payload, i.nextAttemptAt, i.createdAt, i.createdAt); })();
    },
    putBotResult(r: { domain: string; requestId: string; body: string; createdAt: number }, olderThan: number) {
      db.transaction(() => {
        db.query("DELETE FROM bot_results WHERE created_at < ?").run(olderThan);
        db.query("INSERT OR REPLACE INTO bot_results (domain, request_id, body, created_at) VALUES (?, ?, ?, ?)").run(r.domain, r.requestId, r.body, r.createdAt);
      })();
    },
    getBotResult(domain: string, requestId: string): { body: string; createdAt: number } | null {
      const r = db.query("SELECT body, created_at FROM bot_results WHERE domain = ? AND request_id = ?").get(domain, requestId) as Row | null;
      return r ? { body: r.body as string, createdAt: r.created_at as number } : null;
    },
    claim(now: number, limit: number, lease: ClaimLease, perUrl = limit, skipUrls: string[] = []): OutboxItem[] {
      return db.transaction(() => (claim.all(now, limit, lease.leaseMs, perUrl, JSON.stringify(skipUrls), lease.owner) as Row[]).map(toItem)).immediate();
    },
    renew(ids: string[], now: number, lease: ClaimLease): string[] {
      if (!ids.length) return [];
      return (db.query(`UPDATE outbox SET next_attempt_at = ?1 + ?2 WHERE claimed = 1 AND claim_owner = ?3 AND status = 'pending'
        AND id IN (SELECT value FROM json_each(?4)) RETURNING id`).all(now, lease.leaseMs, lease.owner, JSON.stringify(ids)) as Row[]).map((r) => r.id as string);
    },
    finish(id: string, status: OutboxItem["status"], attempts: number, nextAttemptAt: number, error: string | null, now: number) {
      db.query("UPDATE outbox SET status = ?, attempts = ?, next_attempt_at = ?, last_error = ?, updated_at = ?, claimed = 0, claim_owner = NULL WHERE id = ?")
        .run(status, attempts, nextAttemptAt, error, now, id);
    },
    claimProbe(url: string, now: number, lease: ClaimLease): OutboxItem | null {
      const r = db.query(`UPDATE outbox SET next_attempt_at = ?1 + ?3, claimed = 1, claim_owner = ?4 WHERE id = (
        SELECT id FROM outbox WHERE url = ?2 AND status = 'pending' AND (claimed = 0 OR next_attempt_at <= ?1) ORDER BY next_attempt_at LIMIT 1)
        RETURNING *`).get(now, url, lease.leaseMs, lease.owner) as Row | null;
      return r ? toItem(r) : null;
    },
    dueNow(url: string, now: number): number {
      return db.query("UPDATE outbox SET next_attempt_at = ? WHERE url = ? AND status = 'pending' AND claimed = 0 AND next_attempt_at > ?")
        .run(now, url, now).changes;
    },
    /** The owner's own claims (and ownerless ones, from before owners were recorded) are due now. */
    releaseClaims(now: number, owner: string): number {
      return db.query(`UPDATE outbox SET next_attempt_at = ?, claimed = 0, claim_owner = NULL
        WHERE claimed = 1 AND (claim_owner = ? OR claim_owner IS NULL) AND status = 'pending'`).run(now, owner).changes;
    },
    held(now: number): { owner: string; count: number }[] {
      return db.query(`SELECT claim_owner AS owner, COUNT(*) AS count FROM outbox WHERE claimed = 1 AND status = 'pending'
        AND next_attempt_at > ? GROUP BY claim_owner`).all(now) as { owner: string; count: number }[];
    },
    expire(now: number, createdBefore: number, formats: FormatScope = {}): { url: string; count: number; lastError: string | null }[] {
      // ?3 / ?4: JSON arrays of formats to keep to / to leave out (null: no restriction).
      const scope = `status = 'pending' AND claimed = 0 AND created_at < ?2
        AND (?3 IS NULL OR format IN (SELECT value FROM json_each(?3))) AND (?4 IS NULL OR format NOT IN (SELECT value FROM json_each(?4)))`;
      const args = [now, createdBefore, formats.only ? JSON.stringify(formats.only) : null, formats.except ? JSON.stringify(formats.except) : null] as const;
      return db.transaction(() => {
        const gone = db.query(`SELECT url, COUNT(*) AS count, MAX(last_error) AS e FROM outbox WHERE ?1 = ?1 AND ${scope} GROUP BY url`).all(...args) as Row[];
        if (gone.length) {
          db.query(`UPDATE outbox SET status = 'expired', updated_at = ?1, last_error = COALESCE(last_error, 'not delivered within the lifetime')
            WHERE ${scope}`).run(...args);
        }
        return gone.map((r) => ({ url: r.url as string, count: r.count as number, lastError: (r.e as string | null) ?? null }));
      }).immediate();
    },
    /** Posts whose payload names `messageId` (event payloads carry it): a console read, not a hot path. */
    postsFor(domain: string, messageId: string, limit: number): OutboxItem[] {
      return (db.query("SELECT * FROM outbox WHERE domain = ? AND instr(payload, ?) > 0 ORDER BY created_at LIMIT ?")
        .all(domain, `"messageId":${JSON.stringify(messageId)}`, limit) as Row[]).map(toItem);
    },
    stats(): { status: string; count: number }[] {
      return db.query("SELECT status, COUNT(*) AS count FROM outbox GROUP BY status").all() as { status: string; count: number }[];
    },
    nextDueAt(): number | null {
      return ((db.query("SELECT MIN(next_attempt_at) AS t FROM outbox WHERE status = 'pending'").get() as Row).t as number | null) ?? null;
    },
  };
}

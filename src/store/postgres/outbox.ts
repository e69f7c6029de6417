// The webhook outbox in a zone schema: fan-out writes items and its cursor in one transaction;
// any node claims due items (FOR UPDATE SKIP LOCKED, owner and lease, like the mail queue),
// posts them and finishes them. Bot-detection results live here too: any node answers for them.
import type { InboundPostItem, ReceivedEnvelope } from "../../core/inbound/model.ts";
import type { ClaimLease, FormatScope, OutboxItem } from "../../core/store-port.ts";
import { toItem } from "../sqlite/outbox.ts";
import { exec, one, rows, type Sql } from "./db.ts";

const UNCLAIMED = "(owner IS NULL OR next_attempt_at <= $NOW)";
const unclaimed = (nowParam: string) => UNCLAIMED.replace("$NOW", nowParam);

/** Inserts outbox rows inside `tx` (one statement, however many). */
export async function insertItems(tx: Sql, items: OutboxItem[]): Promise<void> {
  if (items.length === 0) return;
  const col = <K extends keyof OutboxItem>(k: K) => items.map((i) => i[k]);
  await exec(tx, `INSERT INTO outbox (id, url, format, target_id, domain, payload, attempts, next_attempt_at, status, created_at, updated_at)
    SELECT u.id, u.url, u.format, u.target_id, u.domain, u.payload, 0, u.next, 'pending', u.created, u.created
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::bigint[])
      AS u(id, url, format, target_id, domain, payload, next, created)`,
    [col("id"), col("url"), col("format"), col("targetId"), col("domain"), col("payload"), col("nextAttemptAt"), col("createdAt")]);
}

/** The posts a received message owes, as outbox items (a batch of one each, as every outbox row). */
export function inboundPosts(m: { envelope: Pick<ReceivedEnvelope, "id" | "domain"> }, posts: InboundPostItem[], now: number): OutboxItem[] {
  return posts.map((p) => ({ id: p.id, url: p.url, format: p.format, targetId: null, domain: m.envelope.domain,
    payload: JSON.stringify([{ inboundId: m.envelope.id, recipient: p.recipient, ruleId: p.ruleId, url: p.url, options: p.options }]),
    attempts: 0, nextAttemptAt: now, status: "pending", lastError: null, createdAt: now }));
}

export function createOutboxStatements(sql: Sql) {
  return {
    /** Compare-and-set on the cursor (its row locked): two nodes fanning out the same events write them once. */
    async enqueue(items: OutboxItem[], cursor: { name: string; from: number; to: number }): Promise<boolean> {
      return sql.begin(async (tx) => {
        await exec(tx, "INSERT INTO cursors (name, value) VALUES ($1, 0) ON CONFLICT (name) DO NOTHING", [cursor.name]);
        const at = (await one(tx, "SELECT value FROM cursors WHERE name = $1 FOR UPDATE", [cursor.name]))?.value as number | undefined;
        if ((at ?? 0) !== cursor.from) return false;
        await insertItems(tx, items);
        await exec(tx, "UPDATE cursors SET value = $2 WHERE name = $1", [cursor.name, cursor.to]);
        return true;
      });
    },
    enqueueItems: (items: OutboxItem[]) => insertItems(sql, items),
    // Claimers take turns (a transaction-scoped advisory lock per zone schema): the scan locks every
    // row it looks at, more than it picks (perUrl), so a concurrent claimer would skip rows nobody
    // takes and come back empty. In turn, each sees the others' claims committed and takes the next.
    claim: (now: number, limit: number, lease: ClaimLease, perUrl = limit, skipUrls: string[] = []): Promise<OutboxItem[]> => sql.begin(async (tx) => {
      await exec(tx, "SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.outbox.claim'))", []);
      const list = await rows(tx, `WITH scanned AS MATERIALIZED (
          SELECT id, url, next_attempt_at FROM outbox WHERE status = 'pending' AND next_attempt_at <= $1 AND url <> ALL($5::text[])
          ORDER BY next_attempt_at LIMIT $6 FOR UPDATE SKIP LOCKED),
        picked AS (SELECT id FROM (SELECT id, next_attempt_at, row_number() OVER (PARTITION BY url ORDER BY next_attempt_at) AS n FROM scanned) s
          WHERE n <= $4 ORDER BY next_attempt_at LIMIT $2)
        UPDATE outbox o SET next_attempt_at = $1 + $3, owner = $7 FROM picked WHERE o.id = picked.id RETURNING o.*`,
        [now, limit, lease.leaseMs, perUrl, skipUrls, limit * 8, lease.owner]);
      return list.sort((a, b) => (a.next_attempt_at as number) - (b.next_attempt_at as number)).map(toItem);
    }),
    async finish(id: string, status: OutboxItem["status"], attempts: number, nextAttemptAt: number, error: string | null, now: number) {
      await exec(sql, "UPDATE outbox SET status = $1, attempts = $2, next_attempt_at = $3, last_error = $4, updated_at = $5, owner = NULL WHERE id = $6",
        [status, attempts, nextAttemptAt, error, now, id]);
    },
    async claimProbe(url: string, now: number, lease: ClaimLease): Promise<OutboxItem | null> {
      const r = await one(sql, `UPDATE outbox SET next_attempt_at = $1 + $3, owner = $4 WHERE id = (
        SELECT id FROM outbox WHERE url = $2 AND status = 'pending' AND ${unclaimed("$1")} ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING *`, [now, url, lease.leaseMs, lease.owner]);
      return r ? toItem(r) : null;
    },
    dueNow(url: string, now: number): Promise<number> {
      return exec(sql, "UPDATE outbox SET next_attempt_at = $1 WHERE url = $2 AND status = 'pending' AND owner IS NULL AND next_attempt_at > $1", [now, url]);
    },
    async renew(ids: string[], now: number, lease: ClaimLease): Promise<string[]> {
      if (ids.length === 0) return [];
      return (await rows(sql, "UPDATE outbox SET next_attempt_at = $1 + $2 WHERE id = ANY($4::text[]) AND owner = $3 AND status = 'pending' RETURNING id",
        [now, lease.leaseMs, lease.owner, ids])).map((r) => r.id as string);
    },
    /** This node's own claims only: other nodes' claims run out by their lease. */
    releaseClaims(now: number, owner: string): Promise<number> {
      return exec(sql, "UPDATE outbox SET next_attempt_at = $1, owner = NULL WHERE owner = $2 AND status = 'pending'", [now, owner]);
    },
    async held(now: number): Promise<{ owner: string; count: number }[]> {
      return (await rows(sql, `SELECT owner, COUNT(*)::int AS count FROM outbox WHERE owner IS NOT NULL AND status = 'pending' AND next_attempt_at > $1
        GROUP BY owner`, [now])) as { owner: string; count: number }[];
    },
    async expire(now: number, createdBefore: number, formats: FormatScope = {}) {
      // Counted from the rows as they were (their last error), then expired in the same statement.
      // $3 / $4: formats to keep to / to leave out (null: no restriction).
      const gone = await rows(sql, `WITH gone AS (SELECT id, url, last_error FROM outbox
          WHERE status = 'pending' AND ${unclaimed("$1")} AND created_at < $2
            AND ($3::text[] IS NULL OR format = ANY($3::text[])) AND ($4::text[] IS NULL OR NOT (format = ANY($4::text[])))
          FOR UPDATE SKIP LOCKED),
        expired AS (UPDATE outbox o SET status = 'expired', updated_at = $1, last_error = COALESCE(o.last_error, 'not delivered within the lifetime')
          FROM gone WHERE o.id = gone.id)
        SELECT url, COUNT(*)::int AS count, MAX(last_error) AS e FROM gone GROUP BY url ORDER BY url`,
        [now, createdBefore, formats.only ?? null, formats.except ?? null]);
      return gone.map((r) => ({ url: r.url as string, count: r.count as number, lastError: (r.e as string | null) ?? null }));
    },
    /** Posts whose payload names `messageId` (event payloads carry it): a console read, not a hot path. */
    async postsFor(domain: string, messageId: string, limit: number): Promise<OutboxItem[]> {
      return (await rows(sql, "SELECT * FROM outbox WHERE domain = $1 AND strpos(payload, $2) > 0 ORDER BY created_at, id LIMIT $3",
        [domain, `"messageId":${JSON.stringify(messageId)}`, limit])).map(toItem);
    },
    async stats() {
      return (await rows(sql, "SELECT status, COUNT(*)::int AS count FROM outbox GROUP BY status ORDER BY status")) as { status: string; count: number }[];
    },
    async nextDueAt(): Promise<number | null> {
      return ((await one(sql, "SELECT MIN(next_attempt_at) AS t FROM outbox WHERE status = 'pending'"))?.t as number | null) ?? null;
    },
    async putBotResult(r: { domain: string; requestId: string; body: string; createdAt: number }, olderThan: number) {
      await sql.begin(async (tx) => {
        await exec(tx, "DELETE FROM bot_results WHERE created_at < $1", [olderThan]);
        await exec(tx, `INSERT INTO bot_results (domain, request_id, body, created_at) VALUES ($1, $2, $3, $4)
          ON CONFLICT (domain, request_id) DO UPDATE SET body = excluded.body, created_at = excluded.created_at`, [r.domain, r.requestId, r.body, r.createdAt]);
      });
    },
    async getBotResult(domain: string, requestId: string) {
      const r = await one(sql, "SELECT body, created_at FROM bot_results WHERE domain = $1 AND request_id = $2", [domain, requestId]);
      return r ? { body: r.body as string, createdAt: r.created_at as number } : null;
    },
  };
}

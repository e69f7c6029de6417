// Retention deletes in a zone schema (store-port.ts RetentionStore): one bounded batch per call,
// in one short transaction. Events are counted into event_rollups before they go (the same rule as
// countEvents: bots left out, one row per distinct tag plus '' for all) and into the vendor stats'
// stat_rollups (the fold the sweeper hands in), so stats keep their counts.
import type { RetentionStore } from "../../core/retention-port.ts";
import { idPrefixAt } from "../../core/ids.ts";
import type { StatFold } from "../../core/stats/rollup.ts";
import { exec, rows, type Sql } from "./db.ts";
import { foldStatRollups, readStatRollups } from "./stat-rollups.ts";

const HOUR_MS = 3_600_000;
const NOT_BOT = "COALESCE(e.data::jsonb ->> 'isBot', 'false') IN ('false', '0')";
const TAGS_OF = "jsonb_array_elements_text(COALESCE(e.data::jsonb -> 'tags', '[]'::jsonb))";

/** Counts the events `$1` (ids) into the rollups, then deletes them. */
async function foldAndDelete(tx: Sql, ids: string[], statFold: StatFold) {
  if (ids.length === 0) return;
  await foldStatRollups(tx, ids, statFold);
  await exec(tx, `INSERT INTO event_rollups (domain, bucket, tag, type, n)
    SELECT domain, bucket, tag, type, COUNT(*) FROM (
      SELECT e.id, e.domain, (e.ts / ${HOUR_MS}) * ${HOUR_MS} AS bucket, '' AS tag, e.type
        FROM events e WHERE e.id = ANY($1::text[]) AND ${NOT_BOT}
      UNION
      SELECT e.id, e.domain, (e.ts / ${HOUR_MS}) * ${HOUR_MS}, t.tag, e.type
        FROM events e CROSS JOIN LATERAL ${TAGS_OF} AS t(tag) WHERE e.id = ANY($1::text[]) AND ${NOT_BOT}
    ) x GROUP BY domain, bucket, tag, type
    ON CONFLICT (domain, bucket, tag, type) DO UPDATE SET n = event_rollups.n + excluded.n`, [ids]);
  await exec(tx, "DELETE FROM events WHERE id = ANY($1::text[])", [ids]);
}

export function createRetentionStatements(sql: Sql): RetentionStore {
  return {
    async sweepOutbox(before, limit) {
      // A materialized CTE, run once: as an IN subquery it may run per row and delete past its limit (queue.ts, claimPlain).
      return exec(sql, `WITH batch AS MATERIALIZED (SELECT id FROM outbox WHERE id < $1 AND created_at < $2 AND status <> 'pending'
        ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED) DELETE FROM outbox o USING batch WHERE o.id = batch.id`, [idPrefixAt(before), before, limit]);
    },
    statRollups: (q) => readStatRollups(sql, q),
    async sweepEvents(before, limit, statFold) {
      return sql.begin(async (tx) => {
        // Unpositioned events (seq NULL) are an accept still being positioned: never taken here.
        const ids = (await rows(tx, `SELECT id FROM events WHERE id < $1 AND ts < $2 AND seq IS NOT NULL
          ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED`, [idPrefixAt(before), before, limit])).map((r) => r.id as string);
        await foldAndDelete(tx, ids, statFold);
        return ids.length;
      });
    },
    async sweepMessages(before, limit, after, statFold) {
      return sql.begin(async (tx) => {
        const scanned = await rows(tx, `SELECT m.id, m.send_id, (m.created_at < $2 AND NOT EXISTS (SELECT 1 FROM recipients r
            WHERE r.message_id = m.id AND (r.status IN ('queued', 'deferred') OR r.updated_at >= $2))) AS done
          FROM messages m WHERE m.id > $1 AND m.id < $3 ORDER BY m.id LIMIT $4`, [after, before, idPrefixAt(before), limit]);
        const done = scanned.filter((r) => r.done === true);
        if (done.length) {
          const ids = done.map((r) => r.id as string);
          await foldAndDelete(tx, (await rows(tx, "SELECT id FROM events WHERE message_id = ANY($1::text[])", [ids])).map((r) => r.id as string), statFold);
          await exec(tx, "DELETE FROM recipients WHERE message_id = ANY($1::text[])", [ids]);
          await exec(tx, "DELETE FROM messages WHERE id = ANY($1::text[])", [ids]);
          await exec(tx, `DELETE FROM attachments a WHERE a.send_id = ANY($1::text[])
            AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.send_id = a.send_id)`, [[...new Set(done.map((r) => r.send_id as string))]]);
        }
        return { deleted: done.length, next: scanned.length < limit ? null : scanned.at(-1)!.id as string };
      });
    },
  };
}

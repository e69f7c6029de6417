// Retention deletes in <zone>.sqlite (store-port.ts RetentionStore): one bounded batch per call, in
// one short IMMEDIATE transaction, so an accept waiting for the write lock waits for one batch at
// most. Events are counted into event_rollups before they go (the same rule as countEvents: bots
// left out, one row per tag plus '' for all) and into the vendor stats' stat_rollups (the fold the
// sweeper hands in), so stats keep their counts.
import type { Database } from "bun:sqlite";
import type { RetentionStore } from "../../core/retention-port.ts";
import type { StatFold } from "../../core/stats/rollup.ts";
import { idPrefixAt } from "../../core/ids.ts";
import { createStatRollups } from "./stat-rollups.ts";

const HOUR_MS = 3_600_000;
const NOT_BOT = "(json_extract(e.data, '$.isBot') IS NULL OR json_extract(e.data, '$.isBot') = 0)";
/** Recipients in these statuses are waiting for an outcome: their message is not done. */
const OPEN = "('queued', 'deferred')";

export function createRetentionStatements(db: Database): RetentionStore {
  const stats = createStatRollups(db);
  // `?1`: a JSON array of event ids; UNION (not ALL) counts an event once per distinct tag. WHERE
  // true: SQLite's upsert after a SELECT needs it.
  const fold = db.query(`INSERT INTO event_rollups (domain, bucket, tag, type, n)
    SELECT domain, bucket, tag, type, COUNT(*) FROM (
      SELECT e.id, e.domain, (e.ts / ${HOUR_MS}) * ${HOUR_MS} AS bucket, '' AS tag, e.type
        FROM events e WHERE e.id IN (SELECT value FROM json_each(?1)) AND ${NOT_BOT}
      UNION
      SELECT e.id, e.domain, (e.ts / ${HOUR_MS}) * ${HOUR_MS}, t.value, e.type
        FROM events e, json_each(e.data, '$.tags') t WHERE e.id IN (SELECT value FROM json_each(?1)) AND ${NOT_BOT}
    ) WHERE true GROUP BY domain, bucket, tag, type
    ON CONFLICT (domain, bucket, tag, type) DO UPDATE SET n = n + excluded.n`);
  const dropEvents = db.query("DELETE FROM events WHERE id IN (SELECT value FROM json_each(?))");
  const oldEvents = db.query("SELECT id FROM events WHERE id < ? AND ts < ? ORDER BY id LIMIT ?");
  const eventsOf = db.query("SELECT id FROM events WHERE message_id IN (SELECT value FROM json_each(?))");
  const scan = db.query(`SELECT m.id, m.send_id, m.created_at < ?2 AND NOT EXISTS (SELECT 1 FROM recipients r WHERE r.message_id = m.id
      AND (r.status IN ${OPEN} OR r.updated_at >= ?2)) AS done
    FROM messages m WHERE m.id > ?1 AND m.id < ?3 ORDER BY m.id LIMIT ?4`);
  const dropRecipients = db.query("DELETE FROM recipients WHERE message_id IN (SELECT value FROM json_each(?))");
  const dropMessages = db.query("DELETE FROM messages WHERE id IN (SELECT value FROM json_each(?))");
  const oldPosts = db.query(`DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE id < ? AND created_at < ? AND status <> 'pending'
    ORDER BY id LIMIT ?)`);
  const dropAttachments = db.query(`DELETE FROM attachments WHERE send_id IN (SELECT value FROM json_each(?))
    AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.send_id = attachments.send_id)`);

  /** Counts the events `ids` into the rollups, then deletes them (inside the caller's transaction). */
  const foldAndDelete = (ids: string[], statFold: StatFold) => {
    if (ids.length === 0) return;
    const list = JSON.stringify(ids);
    fold.run(list);
    stats.fold(list, statFold);
    dropEvents.run(list);
  };

  return {
    async sweepOutbox(before, limit) {
      return db.transaction(() => oldPosts.run(idPrefixAt(before), before, limit).changes).immediate();
    },
    async statRollups(q) {
      return stats.read(q);
    },
    async sweepEvents(before, limit, statFold) {
      return db.transaction(() => {
        const ids = (oldEvents.all(idPrefixAt(before), before, limit) as { id: string }[]).map((r) => r.id);
        foldAndDelete(ids, statFold);
        return ids.length;
      }).immediate();
    },
    async sweepMessages(before, limit, after, statFold) {
      return db.transaction(() => {
        const rows = scan.all(after, before, idPrefixAt(before), limit) as { id: string; send_id: string; done: number }[];
        const done = rows.filter((r) => r.done === 1);
        if (done.length) {
          const ids = JSON.stringify(done.map((r) => r.id));
          foldAndDelete((eventsOf.all(ids) as { id: string }[]).map((r) => r.id), statFold);
          dropRecipients.run(ids);
          dropMessages.run(ids);
          dropAttachments.run(JSON.stringify([...new Set(done.map((r) => r.send_id))]));
        }
        return { deleted: done.length, next: rows.length < limit ? null : rows.at(-1)!.id };
      }).immediate();
    },
  };
}

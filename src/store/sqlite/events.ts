// Events inside <zone>.sqlite: append-only, searched by domain and time, message or recipient.
import type { Database } from "bun:sqlite";
import type { MessageEvent } from "../../core/model.ts";
import type { EventQuery, TagInfo } from "../../core/store-port.ts";
import { json } from "./db.ts";
import { rareTypesTerm } from "./migrations-rare-events.ts";

type Row = Record<string, unknown>;

/** An events row as a MessageEvent (shared with the outbox fan-out). */
export function toEvent(r: Row): MessageEvent {
  const data = json<Partial<MessageEvent>>(r.data, {});
  return { ...data, id: r.id as string, type: r.type as MessageEvent["type"], messageId: r.message_id as string,
    recipient: r.recipient as string, domain: r.domain as string, timestamp: r.ts as number,
    tags: data.tags ?? [], metadata: data.metadata ?? {} };
}

export function createEventStatements(db: Database) {
  // The position is taken under the write lock the transaction holds: commit order (migrations.ts).
  const ins = db.query(`INSERT OR IGNORE INTO events (id, type, message_id, recipient, domain, ts, data, seq)
    VALUES (?, ?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM events))`);
  return {
    insertMany(events: MessageEvent[]) {
      for (const e of events) {
        const { id, type, messageId, recipient, domain, timestamp, ...rest } = e;
        ins.run(id, type, messageId, recipient, domain, timestamp, JSON.stringify(rest));
      }
    },
    search(q: EventQuery): MessageEvent[] {
      const where: string[] = [];
      const args: (string | number)[] = [];
      if (q.domain) { where.push("domain = ?"); args.push(q.domain); }
      if (q.messageId) { where.push("message_id = ?"); args.push(q.messageId); }
      if (q.recipient) { where.push("recipient = ?"); args.push(q.recipient.toLowerCase()); }
      if (q.tag) { where.push("EXISTS (SELECT 1 FROM json_each(data, '$.tags') WHERE value = ?)"); args.push(q.tag); }
      if (q.types?.length) { where.push(`type IN (${q.types.map(() => "?").join(",")})`); args.push(...q.types); }
      const rare = rareTypesTerm(q.types);
      if (rare) where.push(rare);
      if (q.begin !== undefined) { where.push("ts >= ?"); args.push(q.begin); }
      if (q.end !== undefined) { where.push("ts <= ?"); args.push(q.end); }
      if (q.cursor) { where.push(q.ascending ? "id > ?" : "id < ?"); args.push(q.cursor); }
      const sql = `SELECT * FROM events ${where.length ? "WHERE " + where.join(" AND ") : ""}
        ORDER BY ts ${q.ascending ? "ASC" : "DESC"}, id ${q.ascending ? "ASC" : "DESC"} LIMIT ?`;
      return (db.query(sql).all(...args, q.limit) as Row[]).map(toEvent);
    },
    count(q: { domain?: string; begin: number; end: number; tag?: string }) {
      const where = ["ts >= ?", "ts <= ?"];
      const args: (string | number)[] = [q.begin, q.end];
      if (q.domain) { where.push("domain = ?"); args.push(q.domain); }
      if (q.tag !== undefined) { where.push("EXISTS (SELECT 1 FROM json_each(data, '$.tags') WHERE value = ?)"); args.push(q.tag); }
      // Plus the counts of events retention deleted (event_rollups), by the hour that overlaps [begin, end].
      const rolled = ["bucket > ? - 3600000", "bucket <= ?", "tag = ?"];
      const rolledArgs: (string | number)[] = [q.begin, q.end, q.tag ?? ""];
      if (q.domain) { rolled.push("domain = ?"); rolledArgs.push(q.domain); }
      return db.query(`SELECT type, bucket, SUM(count) AS count FROM (
        SELECT type, (ts / 3600000) * 3600000 AS bucket, COUNT(*) AS count FROM events
        WHERE ${where.join(" AND ")} AND (json_extract(data, '$.isBot') IS NULL OR json_extract(data, '$.isBot') = 0)
        GROUP BY type, bucket
        UNION ALL SELECT type, bucket, SUM(n) FROM event_rollups WHERE ${rolled.join(" AND ")} GROUP BY type, bucket)
        GROUP BY type, bucket ORDER BY bucket`).all(...args, ...rolledArgs) as { type: string; bucket: number; count: number }[];
    },
    tags(domain: string): TagInfo[] {
      return (db.query(`SELECT t.value AS tag, MIN(e.ts) AS first_seen, MAX(e.ts) AS last_seen, COALESCE(i.description, '') AS description
        FROM events e, json_each(e.data, '$.tags') t LEFT JOIN tag_info i ON i.domain = e.domain AND i.tag = t.value
        WHERE e.domain = ? AND e.ts > COALESCE(i.deleted_at, 0) GROUP BY t.value ORDER BY t.value`).all(domain) as Row[])
        .map((r) => ({ tag: r.tag as string, description: r.description as string, firstSeen: r.first_seen as number, lastSeen: r.last_seen as number }));
    },
    putTagInfo(domain: string, tag: string, change: { description?: string; deletedAt?: number }) {
      db.query(`INSERT INTO tag_info (domain, tag, description, deleted_at) VALUES (?, ?, ?, ?)
        ON CONFLICT (domain, tag) DO UPDATE SET description = COALESCE(?, description), deleted_at = COALESCE(?, deleted_at)`)
        .run(domain, tag, change.description ?? "", change.deletedAt ?? 0, change.description ?? null, change.deletedAt ?? null);
      if (change.deletedAt !== undefined) db.query("UPDATE tag_info SET description = '' WHERE domain = ? AND tag = ?").run(domain, tag);
    },
  };
}

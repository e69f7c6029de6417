// Events in a zone schema: append-only, searched by domain and time, message or recipient, and
// read in commit order by the webhook fan-out. Every event write takes its positions from the
// event_counter row in the statement that commits it (writes.ts), or as the last statement of its
// transaction: the row's lock makes those writes take turns until they commit, so position order
// is commit order and a cursor never passes an event still uncommitted. Accepted sends write
// their events unpositioned and position them right after their (synchronous) commit, so no
// write holds the counter while it waits for the disk (addUnpositionedEvents, positionEvents).
import type { MessageEvent } from "../../core/model.ts";
import type { EventQuery, TagInfo } from "../../core/store-port.ts";
import { toEvent } from "../sqlite/events.ts";
import { exec, rows, type Sql } from "./db.ts";
import { Writes } from "./writes.ts";
import { rareTypesTerm } from "../sqlite/migrations-rare-events.ts";

// The event's tags, as a set of rows (data is the JSON text of the remaining fields).
const TAGS_OF = (alias: string) => `jsonb_array_elements_text(COALESCE(${alias}.data::jsonb -> 'tags', '[]'::jsonb))`;

/** The events' columns bound to `w`, for an INSERT … SELECT from unnest. */
function bindEvents(w: Writes, events: MessageEvent[]) {
  const cols: unknown[][] = [[], [], [], [], [], [], []];
  for (const e of events) {
    const { id, type, messageId, recipient, domain, timestamp, ...rest } = e;
    [id, type, messageId, recipient, domain, timestamp, JSON.stringify(rest)].forEach((v, i) => cols[i]!.push(v));
  }
  const [ids, types, messages, recipients, domains, ts, data] = cols.map((c) => w.bind(c));
  return `unnest(${ids}::text[], ${types}::text[], ${messages}::text[], ${recipients}::text[], ${domains}::text[], ${ts}::bigint[], ${data}::text[])
      WITH ORDINALITY AS u(id, type, message_id, recipient, domain, ts, data, ord)`;
}

/** Adds the writing of `events` to `w`: their positions come from the counter row in the same statement. */
export function addEvents(w: Writes, events: MessageEvent[]): void {
  if (events.length === 0) return;
  const rows = bindEvents(w, events);
  const n = w.bind(events.length);
  const counter = w.add(`UPDATE event_counter SET value = value + ${n}::bigint RETURNING value - ${n}::bigint AS base`);
  w.add(`INSERT INTO events (id, seq, type, message_id, recipient, domain, ts, data)
    SELECT u.id, ${counter}.base + u.ord, u.type, u.message_id, u.recipient, u.domain, u.ts, u.data
    FROM ${counter}, ${rows}
    ON CONFLICT (id) DO NOTHING`);
}

/**
 * Adds the writing of `events` to `w` without positions (seq NULL): a statement that commits
 * synchronously (accepted sends) must not hold the event counter while it waits for the disk,
 * since every other event write (the delivery outcomes of every node) queues behind that lock.
 * positionEvents gives them their positions once committed; the fan-out reads positioned events only.
 */
export function addUnpositionedEvents(w: Writes, events: MessageEvent[]): void {
  if (events.length === 0) return;
  w.add(`INSERT INTO events (id, seq, type, message_id, recipient, domain, ts, data)
    SELECT u.id, NULL, u.type, u.message_id, u.recipient, u.domain, u.ts, u.data FROM ${bindEvents(w, events)}
    ON CONFLICT (id) DO NOTHING`);
}

/**
 * Gives committed events without a position theirs (those of `ids`, or every one), from the
 * counter row in one statement committed without waiting for the disk: positions are taken
 * under the counter's lock and committed with it, so position order stays commit order. Two
 * positioners of one event: the second finds it positioned (re-checked after the lock) and skips
 * it, leaving a gap in the positions, which readers do not mind. A lost commit (a PostgreSQL
 * crash) leaves them unpositioned again, to be positioned anew: any cursor past them was
 * committed later, synchronously, so it cannot have been kept without them.
 */
export async function positionEvents(sql: Sql, ids: string[] | null): Promise<void> {
  const w = new Writes();
  w.setLocal("synchronous_commit", "'off'");
  const only = ids ? `AND id = ANY(${w.bind(ids)}::text[])` : "";
  const todo = w.add(`SELECT id, row_number() OVER (ORDER BY ts, id) AS n
    FROM (SELECT id, ts FROM events WHERE seq IS NULL ${only} ORDER BY ts, id LIMIT 10000) t`);
  const counter = w.add(`UPDATE event_counter SET value = value + (SELECT COUNT(*) FROM ${todo}) RETURNING value - (SELECT COUNT(*) FROM ${todo}) AS base`);
  w.add(`UPDATE events e SET seq = ${counter}.base + ${todo}.n FROM ${counter}, ${todo} WHERE e.id = ${todo}.id AND e.seq IS NULL`);
  await w.run(sql);
}

/** Writes `events` inside transaction `tx`; call it last in the transaction, so the counter's lock is held briefly. */
export async function insertEvents(tx: Sql, events: MessageEvent[]): Promise<void> {
  const w = new Writes();
  addEvents(w, events);
  await w.run(tx);
}

export function createEventStatements(sql: Sql) {
  return {
    async search(q: EventQuery): Promise<MessageEvent[]> {
      const where: string[] = [];
      const args: unknown[] = [];
      const add = (clause: (n: string) => string, value: unknown) => { args.push(value); where.push(clause(`$${args.length}`)); };
      if (q.domain) add((n) => `domain = ${n}`, q.domain);
      if (q.messageId) add((n) => `message_id = ${n}`, q.messageId);
      if (q.recipient) add((n) => `recipient = ${n}`, q.recipient.toLowerCase());
      if (q.tag) add((n) => `EXISTS (SELECT 1 FROM ${TAGS_OF("events")} AS t(tag) WHERE t.tag = ${n})`, q.tag);
      if (q.types?.length) add((n) => `type = ANY(${n}::text[])`, q.types);
      const rare = rareTypesTerm(q.types);
      if (rare) where.push(rare);
      if (q.begin !== undefined) add((n) => `ts >= ${n}`, q.begin);
      if (q.end !== undefined) add((n) => `ts <= ${n}`, q.end);
      if (q.cursor) add((n) => (q.ascending ? `id COLLATE "C" > ${n}` : `id COLLATE "C" < ${n}`), q.cursor);
      args.push(q.limit);
      const dir = q.ascending ? "ASC" : "DESC";
      const text = `SELECT * FROM events ${where.length ? "WHERE " + where.join(" AND ") : ""} ORDER BY ts ${dir}, id COLLATE "C" ${dir} LIMIT $${args.length}`;
      return (await rows(sql, text, args as never[])).map(toEvent);
    },
    async count(q: { domain?: string; begin: number; end: number; tag?: string }) {
      const where = ["ts >= $1", "ts <= $2"];
      const args: unknown[] = [q.begin, q.end];
      if (q.domain) { args.push(q.domain); where.push(`domain = $${args.length}`); }
      if (q.tag !== undefined) { args.push(q.tag); where.push(`EXISTS (SELECT 1 FROM ${TAGS_OF("events")} AS t(tag) WHERE t.tag = $${args.length})`); }
      // Plus the counts of events retention deleted (event_rollups), by the hour that overlaps [begin, end].
      args.push(q.tag ?? "");
      const rolled = [`bucket > $1 - 3600000`, `bucket <= $2`, `tag = $${args.length}`, ...(q.domain ? ["domain = $3"] : [])];
      return (await rows(sql, `SELECT type, bucket, SUM(count)::int AS count FROM (
        SELECT type, (ts / 3600000) * 3600000 AS bucket, COUNT(*) AS count FROM events
        WHERE ${where.join(" AND ")} AND COALESCE(data::jsonb ->> 'isBot', 'false') IN ('false', '0')
        GROUP BY type, bucket
        UNION ALL SELECT type, bucket, SUM(n) FROM event_rollups WHERE ${rolled.join(" AND ")} GROUP BY type, bucket) x
        GROUP BY type, bucket ORDER BY bucket, type`, args as never[])) as { type: string; bucket: number; count: number }[];
    },
    async tags(domain: string): Promise<TagInfo[]> {
      return (await rows(sql, `SELECT t.tag, MIN(e.ts) AS first_seen, MAX(e.ts) AS last_seen, COALESCE(MAX(i.description), '') AS description
        FROM events e CROSS JOIN LATERAL ${TAGS_OF("e")} AS t(tag) LEFT JOIN tag_info i ON i.domain = e.domain AND i.tag = t.tag
        WHERE e.domain = $1 AND e.ts > COALESCE(i.deleted_at, 0) GROUP BY t.tag ORDER BY t.tag COLLATE "C"`, [domain]))
        .map((r) => ({ tag: r.tag as string, description: r.description as string, firstSeen: r.first_seen as number, lastSeen: r.last_seen as number }));
    },
    async putTagInfo(domain: string, tag: string, change: { description?: string; deletedAt?: number }) {
      await exec(sql, `INSERT INTO tag_info (domain, tag, description, deleted_at) VALUES ($1, $2, $3, $4)
        ON CONFLICT (domain, tag) DO UPDATE SET description = CASE WHEN $6::bigint IS NOT NULL THEN '' ELSE COALESCE($5, tag_info.description) END,
          deleted_at = COALESCE($6, tag_info.deleted_at)`,
        [domain, tag, change.deletedAt !== undefined ? "" : change.description ?? "", change.deletedAt ?? 0, change.description ?? null, change.deletedAt ?? null]);
    },
    async cursor(name: string): Promise<number> {
      return ((await rows(sql, "SELECT value FROM cursors WHERE name = $1", [name]))[0]?.value as number | undefined) ?? 0;
    },
    async eventsAfter(position: number, limit: number): Promise<{ position: number; event: MessageEvent }[]> {
      // Events a send committed but whose node died before positioning them get theirs here.
      if ((await rows(sql, "SELECT 1 AS n FROM events WHERE seq IS NULL LIMIT 1")).length) await positionEvents(sql, null);
      return (await rows(sql, "SELECT * FROM events WHERE seq > $1 ORDER BY seq LIMIT $2", [position, limit]))
        .map((r) => ({ position: r.seq as number, event: toEvent(r) }));
    },
  };
}

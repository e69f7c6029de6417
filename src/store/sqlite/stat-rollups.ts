// The vendor stats' rollups in <zone>.sqlite (core/stats/rollup.ts): written by retention inside the
// transaction that deletes the events (the sweeper hands in the fold), read by the stats surfaces.
import type { Database } from "bun:sqlite";
import type { StatFold, StatRollup } from "../../core/stats/rollup.ts";
import type { StatRollupQuery } from "../../core/retention-port.ts";
import { toEvent } from "./events.ts";
import { decodeExtra } from "./messages.ts";

type Row = Record<string, unknown>;
const HOUR_MS = 3_600_000;

export function createStatRollups(db: Database) {
  const withMessages = db.query(`SELECT e.*, m.size AS m_size, m.extra AS m_extra, m.id AS m_id FROM events e
    LEFT JOIN messages m ON m.id = e.message_id WHERE e.id IN (SELECT value FROM json_each(?))`);
  const upsert = db.query(`INSERT INTO stat_rollups (domain, bucket, tag, rcpt_domain, campaign, template, ip_pool, stat, n, bytes)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (domain, bucket, tag, rcpt_domain, campaign, template, ip_pool, stat) DO UPDATE SET n = n + excluded.n, bytes = bytes + excluded.bytes`);
  return {
    /** Adds the events `list` (a JSON array of ids) to the rollups; inside the caller's transaction, before they are deleted. */
    fold(list: string, fold: StatFold) {
      const input = (withMessages.all(list) as Row[]).map((r) => ({
        event: toEvent(r), message: r.m_id ? { size: r.m_size as number, extra: decodeExtra(r.m_extra) } : null }));
      for (const s of fold(input)) upsert.run(s.domain, s.bucket, s.tag, s.rcptDomain, s.campaign, s.template, s.ipPool, s.stat, s.n, s.bytes);
    },
    read(q: StatRollupQuery): StatRollup[] {
      const where = ["bucket > ?", "bucket <= ?"];
      const args: (string | number)[] = [q.begin - HOUR_MS, q.end];
      if (q.domain) { where.push("domain = ?"); args.push(q.domain); }
      if (q.tags === "*") where.push("tag <> ''");
      else if (q.tags) { where.push(`tag IN (${q.tags.map(() => "?").join(",")})`); args.push(...q.tags); }
      else where.push("tag = ''");
      return (db.query(`SELECT * FROM stat_rollups WHERE ${where.join(" AND ")} ORDER BY bucket`).all(...args) as Row[]).map((r) => ({
        domain: r.domain as string, bucket: r.bucket as number, tag: r.tag as string, rcptDomain: r.rcpt_domain as string,
        campaign: r.campaign as string, template: r.template as string, ipPool: r.ip_pool as string, stat: r.stat as string,
        n: r.n as number, bytes: r.bytes as number }));
    },
  };
}

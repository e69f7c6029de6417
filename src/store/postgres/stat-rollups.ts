// The vendor stats' rollups in a zone schema (core/stats/rollup.ts): written by retention inside
// the transaction that deletes the events (the sweeper hands in the fold), read by the stats surfaces.
import type { StatFold, StatRollup } from "../../core/stats/rollup.ts";
import type { StatRollupQuery } from "../../core/retention-port.ts";
import { toEvent } from "../sqlite/events.ts";
import { decodeExtra } from "../sqlite/messages.ts";
import { exec, rows, type Sql } from "./db.ts";

const HOUR_MS = 3_600_000;
const COLUMNS = ["domain", "bucket", "tag", "rcpt_domain", "campaign", "template", "ip_pool", "stat", "n", "bytes"] as const;
const TYPES = ["text", "bigint", "text", "text", "text", "text", "text", "text", "bigint", "bigint"];

/** Adds the events `ids` to the rollups; inside the caller's transaction `tx`, before they are deleted. */
export async function foldStatRollups(tx: Sql, ids: string[], fold: StatFold): Promise<void> {
  const found = await rows(tx, `SELECT e.*, m.size AS m_size, m.extra AS m_extra, m.id AS m_id FROM events e
    LEFT JOIN messages m ON m.id = e.message_id WHERE e.id = ANY($1::text[])`, [ids]);
  const out = fold(found.map((r) => ({ event: toEvent(r), message: r.m_id ? { size: Number(r.m_size), extra: decodeExtra(r.m_extra) } : null })));
  if (!out.length) return;
  const cols = out.map((s) => [s.domain, s.bucket, s.tag, s.rcptDomain, s.campaign, s.template, s.ipPool, s.stat, s.n, s.bytes]);
  const arrays = COLUMNS.map((_, i) => cols.map((c) => c[i]));
  await exec(tx, `INSERT INTO stat_rollups (${COLUMNS.join(", ")})
    SELECT * FROM unnest(${TYPES.map((t, i) => `$${i + 1}::${t}[]`).join(", ")})
    ON CONFLICT (domain, bucket, tag, rcpt_domain, campaign, template, ip_pool, stat)
    DO UPDATE SET n = stat_rollups.n + excluded.n, bytes = stat_rollups.bytes + excluded.bytes`, arrays);
}

export async function readStatRollups(sql: Sql, q: StatRollupQuery): Promise<StatRollup[]> {
  const args: unknown[] = [q.begin - HOUR_MS, q.end];
  const where = ["bucket > $1", "bucket <= $2"];
  if (q.domain) { args.push(q.domain); where.push(`domain = $${args.length}`); }
  if (q.tags === "*") where.push("tag <> ''");
  else if (q.tags) { args.push(q.tags); where.push(`tag = ANY($${args.length}::text[])`); }
  else where.push("tag = ''");
  return (await rows(sql, `SELECT * FROM stat_rollups WHERE ${where.join(" AND ")} ORDER BY bucket`, args as never[])).map((r) => ({
    domain: r.domain as string, bucket: Number(r.bucket), tag: r.tag as string, rcptDomain: r.rcpt_domain as string,
    campaign: r.campaign as string, template: r.template as string, ipPool: r.ip_pool as string, stat: r.stat as string,
    n: Number(r.n), bytes: Number(r.bytes) }));
}

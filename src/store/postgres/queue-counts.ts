// Recipients per status and key from the counters the triggers of migrations-sched2.ts keep: the
// deltas written since the last read are folded into recipient_counts (one statement, keys in
// order, so two readers folding at once wait for each other and never deadlock), then the counts
// are read. Cost: the keys and the statements since the last read, never the recipients.
import type { Sql } from "./db.ts";
import { rows } from "./db.ts";

const FOLD = `WITH d AS (DELETE FROM recipient_count_deltas RETURNING status, rcpt_domain, n)
  INSERT INTO recipient_counts SELECT status, rcpt_domain, SUM(n) FROM d GROUP BY status, rcpt_domain ORDER BY status, rcpt_domain
  ON CONFLICT (status, rcpt_domain) DO UPDATE SET n = recipient_counts.n + excluded.n`;

export interface RecipientCounts { byStatus: Map<string, number>; pendingByKey: { key: string; count: number }[] }

export async function recipientCounts(sql: Sql): Promise<RecipientCounts> {
  await rows(sql, FOLD);
  const all = await rows(sql, "SELECT status, rcpt_domain, n::bigint AS n FROM recipient_counts WHERE n <> 0");
  const byStatus = new Map<string, number>();
  const byKey = new Map<string, number>();
  for (const r of all) {
    const n = Number(r.n);
    byStatus.set(r.status as string, (byStatus.get(r.status as string) ?? 0) + n);
    if (r.status === "queued" || r.status === "deferred") byKey.set(r.rcpt_domain as string, (byKey.get(r.rcpt_domain as string) ?? 0) + n);
  }
  const pendingByKey = [...byKey].filter(([, n]) => n > 0).map(([key, count]) => ({ key, count }))
    .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { byStatus, pendingByKey };
}

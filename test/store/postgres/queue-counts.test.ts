// Recipients counted without reading them on PostgreSQL (src/store/postgres/queue-counts.ts,
// migrations-sched2.ts): rows queued before the migration are counted, every insert, status
// change and delete moves the counts, a claim (no status change) writes no delta, and the count
// reads recipient_counts and the deltas only, never recipients (PostgreSQL's own plan says so).
import { afterAll, expect, test } from "bun:test";
import { pgSkipReason, sharedPostgres, type PgCluster } from "../../helpers/postgres.ts";
import { ZONE_MIGRATIONS, zoneSchema } from "../../../src/store/postgres/migrations.ts";
import { SCHED2_ZONE_MIGRATIONS } from "../../../src/store/postgres/migrations-sched2.ts";
import { migrate, openPool } from "../../../src/store/postgres/db.ts";
import { recipientCounts } from "../../../src/store/postgres/queue-counts.ts";

const pg: PgCluster | null = pgSkipReason ? null : await sharedPostgres();
afterAll(async () => { await pg?.stop(); }, 60_000);

test.skipIf(pg === null)("counts follow inserts, status changes and deletes, and never read recipients", async () => {
  const url = await pg!.createDatabase("counts");
  const schema = zoneSchema("us");
  const sql = openPool(url, schema, 1);
  const before = ZONE_MIGRATIONS.length - SCHED2_ZONE_MIGRATIONS.length;
  await migrate(sql, schema, ZONE_MIGRATIONS.slice(0, before));
  const ins = (prefix: string, domain: string, n: number, at: number) => sql.unsafe(`INSERT INTO recipients (id, message_id, email, rcpt_domain, kind, status,
    attempts, next_attempt_at, expires_at, updated_at) SELECT '${prefix}' || i, 'm1', i || '@${domain}', '${domain}', 'to', 'queued', 0, ${at}, 9e15, 0
    FROM generate_series(1, ${n}) AS i`);
  await ins("old", "gmail.test", 3, 0); // queued before the migration
  await migrate(sql, schema, ZONE_MIGRATIONS);
  await ins("s", "gmail.test", 1000, 1e12); // scheduled 48 h ahead, on the same key as live mail
  await ins("l", "yahoo.test", 5, 0);
  let c = await recipientCounts(sql);
  expect(c.pendingByKey).toEqual([{ key: "gmail.test", count: 1003 }, { key: "yahoo.test", count: 5 }]);
  expect(c.byStatus.get("queued")).toBe(1008);
  // A claim moves next_attempt_at only: no delta row.
  await sql.unsafe("UPDATE recipients SET next_attempt_at = 5, owner = 'n1' WHERE id LIKE 'l%'");
  expect(Number((await sql.unsafe("SELECT COUNT(*) AS n FROM recipient_count_deltas"))[0].n)).toBe(0);
  await sql.unsafe("UPDATE recipients SET status = 'delivered', owner = NULL WHERE id IN ('l1', 'l2', 'old1')");
  await sql.unsafe("DELETE FROM recipients WHERE id = 's1'");
  c = await recipientCounts(sql);
  expect(c.pendingByKey).toEqual([{ key: "gmail.test", count: 1001 }, { key: "yahoo.test", count: 3 }]);
  expect([c.byStatus.get("queued"), c.byStatus.get("delivered")]).toEqual([1004, 3]);
  expect(Number((await sql.unsafe("SELECT COUNT(*) AS n FROM recipient_count_deltas"))[0].n)).toBe(0); // folded
  // The read: recipient_counts only (the fold reads the deltas), whatever waits in recipients.
  const plan = JSON.stringify(await sql.unsafe("EXPLAIN (FORMAT JSON) SELECT status, rcpt_domain, n FROM recipient_counts WHERE n <> 0"));
  expect(plan).toContain("recipient_counts");
  expect(plan).not.toContain('"Relation Name":"recipients"');
  await sql.end();
}, 120_000);

// The queue by key on PostgreSQL (src/store/postgres/destinations.ts): with 20,000 recipients due
// for each of two big keys and 20,000 parked, a claim for another key and the list of waiting keys read only
// the rows they return (PostgreSQL's own EXPLAIN ANALYZE counts, not a timing).
import { afterAll, expect, test } from "bun:test";
import { pgSkipReason, sharedPostgres, type PgCluster } from "../../helpers/postgres.ts";
import { ZONE_MIGRATIONS, zoneSchema } from "../../../src/store/postgres/migrations.ts";
import { migrate, openPool } from "../../../src/store/postgres/db.ts";

const pg: PgCluster | null = pgSkipReason ? null : await sharedPostgres();
afterAll(async () => { await pg?.stop(); }, 60_000);
const PENDING = "lower(status) IN ('queued', 'deferred')"; // as destinations.ts writes it

type PlanNode = { "Node Type": string; "Index Name"?: string; "Actual Rows": number; "Actual Loops": number; "Rows Removed by Filter"?: number; Plans?: PlanNode[] };
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

test.skipIf(pg === null)("a claim for a key and the waiting keys read only the rows they return", async () => {
  const url = await pg!.createDatabase("destinations");
  const schema = zoneSchema("us");
  const sql = openPool(url, schema, 1);
  await migrate(sql, schema, ZONE_MIGRATIONS);
  const ins = (domain: string, n: number, at: number) => sql.unsafe(`INSERT INTO recipients (id, message_id, email, rcpt_domain, kind, status, attempts,
    next_attempt_at, expires_at, updated_at) SELECT '${domain}-' || i, 'm1', i || '@${domain}', '${domain}', 'to', 'queued', 0, ${at} + i, 9e15, 0
    FROM generate_series(1, ${n}) AS i`);
  await ins("outlook.test", 20_000, -1e6); // due before every gmail row
  await ins("gmail.test", 20_000, 0);
  await ins("parked.test", 20_000, 1e12);
  await ins("other.test", 3, 100);
  await sql.unsafe("ANALYZE recipients");
  const explain = async (q: string) => ((await sql.unsafe(`EXPLAIN (ANALYZE, FORMAT JSON) ${q}`)) as { "QUERY PLAN": { Plan: PlanNode }[] }[])[0]!["QUERY PLAN"][0]!.Plan;

  // The statement claimKeys runs (one CTE arm per key), without its UPDATE.
  const arm = (i: number, key: string, limit: number) => `a${i} AS (SELECT id FROM recipients WHERE ${PENDING} AND rcpt_domain = '${key}'
    AND next_attempt_at <= 1000000 ORDER BY rcpt_domain, next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)`;
  const claim = nodes(await explain(`WITH ${arm(0, "other.test", 10)}, ${arm(1, "gmail.test", 5)} SELECT id FROM a0 UNION ALL SELECT id FROM a1`));
  const scans = claim.filter((n) => ["Index Scan", "Index Only Scan", "Seq Scan", "Bitmap Heap Scan"].includes(n["Node Type"]));
  expect(scans.map((n) => [n["Index Name"], n["Actual Rows"], n["Rows Removed by Filter"] ?? 0])).toEqual([["recipients_key_due", 3, 0], ["recipients_key_due", 5, 0]]);

  const keys = nodes(await explain(`WITH RECURSIVE k AS (
    (SELECT rcpt_domain, next_attempt_at FROM recipients WHERE ${PENDING} ORDER BY rcpt_domain, next_attempt_at LIMIT 1)
    UNION ALL SELECT n.rcpt_domain, n.next_attempt_at FROM k CROSS JOIN LATERAL (SELECT rcpt_domain, next_attempt_at FROM recipients
      WHERE ${PENDING} AND rcpt_domain > k.rcpt_domain ORDER BY rcpt_domain, next_attempt_at LIMIT 1) n) SELECT * FROM k`));
  const read = keys.filter((n) => n["Node Type"].includes("Index")).map((n) => [n["Index Name"], n["Actual Rows"] * n["Actual Loops"], n["Rows Removed by Filter"] ?? 0]);
  expect(read.every(([name]) => name === "recipients_key_due")).toBe(true);
  expect(read.reduce((s, [, rows]) => s + (rows as number), 0)).toBeLessThanOrEqual(5); // one per key (4), plus the probe past the last
  await sql.end();
}, 120_000);

// The TLS-RPT IP migration of the PostgreSQL engine on a control schema an older postern wrote:
// the week's session counts are kept (with no IPs), and counts that differ only by their IPs are then kept apart.
import { afterAll, expect, test } from "bun:test";
import { pgSkipReason, sharedPostgres, type PgCluster } from "../../helpers/postgres.ts";
import { CONTROL_MIGRATIONS, CONTROL_SCHEMA } from "../../../src/store/postgres/migrations.ts";
import { TLSRPT_CONTROL_MIGRATIONS } from "../../../src/store/postgres/migrations-tlsrpt.ts";
import { migrate, openPool } from "../../../src/store/postgres/db.ts";
import { createTlsReportCounts } from "../../../src/store/postgres/tls-report-counts.ts";

const pg: PgCluster | null = pgSkipReason ? null : await sharedPostgres();
afterAll(async () => { await pg?.stop(); }, 60_000);

test.skipIf(pg === null)("existing counts survive; IPs then set counts apart", async () => {
  const sql = openPool(await pg!.createDatabase("tlsrpt"), CONTROL_SCHEMA, 1);
  await migrate(sql, CONTROL_SCHEMA, CONTROL_MIGRATIONS.slice(0, CONTROL_MIGRATIONS.indexOf(TLSRPT_CONTROL_MIGRATIONS[0]!)));
  await sql.unsafe("INSERT INTO tls_sessions (day, policy_domain, policy_type, mx_host, result, n) VALUES (20000, 'a.test', 'sts', 'mx.a.test', 'sts-webpki-invalid', 4)");
  await migrate(sql, CONTROL_SCHEMA, CONTROL_MIGRATIONS);
  const counts = createTlsReportCounts(sql);
  const failed = { policyDomain: "a.test", policyType: "sts" as const, mxHost: "mx.a.test", result: "sts-webpki-invalid" };
  await counts.addTlsSessions(20000, [{ ...failed, count: 1 }, { ...failed, sendingIp: "192.0.2.1", receivingIp: "198.51.100.7", count: 2 }]);
  expect(await counts.tlsSessions(20000)).toEqual([{ ...failed, count: 5 }, { ...failed, sendingIp: "192.0.2.1", receivingIp: "198.51.100.7", count: 2 }]);
  await sql.close();
}, 60_000);

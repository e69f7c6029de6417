// The TLS-RPT IP migration on a control file an older postern wrote: the week's session counts
// are kept (with no IPs), and counts that differ only by their IPs are then kept apart.
import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { CONTROL_MIGRATIONS } from "../../../src/store/sqlite/migrations.ts";
import { TLSRPT_CONTROL_MIGRATIONS } from "../../../src/store/sqlite/migrations-tlsrpt.ts";
import { migrate } from "../../../src/store/sqlite/db.ts";
import { createTlsReportCounts } from "../../../src/store/sqlite/tls-report-counts.ts";

test("existing counts survive; IPs then set counts apart", async () => {
  const db = new Database(":memory:", { strict: true });
  migrate(db, CONTROL_MIGRATIONS.slice(0, CONTROL_MIGRATIONS.indexOf(TLSRPT_CONTROL_MIGRATIONS[0]!)));
  db.run("INSERT INTO tls_sessions (day, policy_domain, policy_type, mx_host, result, n) VALUES (20000, 'a.test', 'sts', 'mx.a.test', 'sts-webpki-invalid', 4)");
  migrate(db, CONTROL_MIGRATIONS);
  const counts = createTlsReportCounts(db);
  const failed = { policyDomain: "a.test", policyType: "sts" as const, mxHost: "mx.a.test", result: "sts-webpki-invalid" };
  await counts.addTlsSessions(20000, [{ ...failed, count: 1 }, { ...failed, sendingIp: "192.0.2.1", receivingIp: "198.51.100.7", count: 2 }]);
  expect(await counts.tlsSessions(20000)).toEqual([{ ...failed, count: 5 }, { ...failed, sendingIp: "192.0.2.1", receivingIp: "198.51.100.7", count: 2 }]);
});

// Receivers' reports in a zone schema: as the SQLite engine's, shared by every node of the zone.
import type { ReceiverReportStore, StoredReceiverReport } from "../../core/store-port.ts";
import { exec, rows, type Sql } from "./db.ts";

export function createReceiverReports(sql: Sql): ReceiverReportStore {
  return {
    async putReceiverReport(r) {
      return await exec(sql, `INSERT INTO receiver_reports (kind, org, report_id, domain, begin_at, end_at, received_at, body)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
        [r.kind, r.orgName, r.reportId, r.domain, r.begin, r.end, r.receivedAt, JSON.stringify(r)]) > 0;
    },
    async listReceiverReports(q) {
      const found = await rows(sql, `SELECT body FROM receiver_reports WHERE domain = $1 AND kind = $2
        AND ((end_at >= $3 AND end_at < $4) OR (received_at >= $3 AND received_at < $4))
        ORDER BY end_at, org, report_id LIMIT $5`, [q.domain, q.kind, q.from, q.to, q.limit]);
      return found.map((row) => JSON.parse(row.body as string) as StoredReceiverReport);
    },
  };
}

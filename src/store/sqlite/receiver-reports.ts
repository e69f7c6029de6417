// Receivers' reports in <zone>.sqlite: the parsed report as JSON, unique per reporter and id.
import type { Database } from "bun:sqlite";
import type { ReceiverReportStore, StoredReceiverReport } from "../../core/store-port.ts";

export function createReceiverReports(db: Database): ReceiverReportStore {
  const put = db.query(`INSERT INTO receiver_reports (kind, org, report_id, domain, begin_at, end_at, received_at, body)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`);
  const list = db.query(`SELECT body FROM receiver_reports WHERE domain = ?1 AND kind = ?2
    AND ((end_at >= ?3 AND end_at < ?4) OR (received_at >= ?3 AND received_at < ?4))
    ORDER BY end_at, org, report_id LIMIT ?5`);
  return {
    async putReceiverReport(r) {
      return put.run(r.kind, r.orgName, r.reportId, r.domain, r.begin, r.end, r.receivedAt, JSON.stringify(r)).changes > 0;
    },
    async listReceiverReports(q) {
      return (list.all(q.domain, q.kind, q.from, q.to, q.limit) as { body: string }[]).map((row) => JSON.parse(row.body) as StoredReceiverReport);
    },
  };
}

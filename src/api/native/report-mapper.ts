// Receivers' reports on the native API's wire: snake_case, ISO times, as the rest of the native API.
import type { StoredReceiverReport } from "../../core/receiver-report.ts";
import { isoSeconds } from "../wire.ts";

export function toReceiverReport(r: StoredReceiverReport) {
  const head = { domain: r.domain, reporter: r.orgName, contact: r.contact, report_id: r.reportId,
    begin: isoSeconds(r.begin), end: isoSeconds(r.end), received_at: isoSeconds(r.receivedAt) };
  if (r.kind === "dmarc") {
    return { ...head, kind: "dmarc", policy: r.policy, rows: r.rows.map((row) => ({
      source_ip: row.sourceIp, count: row.count, disposition: row.disposition,
      // DMARC's own verdicts (aligned) and the raw results before alignment.
      dkim_aligned: row.dkimAligned, spf_aligned: row.spfAligned, header_from: row.headerFrom,
      envelope_from: row.envelopeFrom, envelope_to: row.envelopeTo, dkim: row.dkim, spf: row.spf })) };
  }
  return { ...head, kind: "tls", policies: r.policies.map((p) => ({
    policy_type: p.policyType, policy_domain: p.policyDomain, mx_hosts: p.mxHosts,
    successful_sessions: p.successful, failed_sessions: p.failed,
    failures: p.failures.map((f) => ({ result_type: f.resultType, sending_mta_ip: f.sendingMta, receiving_mx_hostname: f.receivingMx,
      receiving_ip: f.receivingIp, failed_sessions: f.count })) })) };
}

// Reads an SMTP TLS report (RFC 8460 §4, JSON) into a TlsReport. Throws on anything else.
import { MAX_REPORT_ROWS, type TlsPolicyResult, type TlsReport } from "../../core/receiver-report.ts";

type Node = Record<string, unknown>;
const obj = (v: unknown): Node => (v && typeof v === "object" && !Array.isArray(v) ? v as Node : {});
const str = (v: unknown): string => (typeof v === "string" ? v.trim() : "");
const int = (v: unknown): number => (typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : 0);
const time = (v: unknown): number => Date.parse(str(v));

export function parseTlsReportJson(json: string): TlsReport {
  const r = obj(JSON.parse(json));
  const range = obj(r["date-range"]);
  const policies = Array.isArray(r.policies) ? r.policies.map(readPolicy) : [];
  const report: TlsReport = {
    kind: "tls", domain: policies[0]?.policyDomain ?? "", orgName: str(r["organization-name"]), contact: str(r["contact-info"]),
    reportId: str(r["report-id"]), begin: time(range["start-datetime"]), end: time(range["end-datetime"]), policies,
  };
  if (!report.orgName || !report.reportId || !policies.length || !report.domain) throw new Error("not a TLS report: no organization-name, report-id or policies");
  if (!Number.isFinite(report.begin) || !Number.isFinite(report.end)) throw new Error("TLS report: bad date-range");
  if (policies.reduce((n, p) => n + p.failures.length, 0) > MAX_REPORT_ROWS) throw new Error(`TLS report: more than ${MAX_REPORT_ROWS} failure details`);
  return report;
}

function readPolicy(v: unknown): TlsPolicyResult {
  const p = obj(v);
  const policy = obj(p.policy);
  const summary = obj(p.summary);
  const details = Array.isArray(p["failure-details"]) ? p["failure-details"] : [];
  return {
    policyType: str(policy["policy-type"]) || "no-policy-found", policyDomain: str(policy["policy-domain"]).toLowerCase().replace(/\.$/, ""),
    mxHosts: Array.isArray(policy["mx-host"]) ? policy["mx-host"].map(str).filter(Boolean) : [],
    successful: int(summary["total-successful-session-count"]), failed: int(summary["total-failure-session-count"]),
    failures: details.map(obj).map((d) => ({ resultType: str(d["result-type"]), sendingMta: str(d["sending-mta-ip"]),
      receivingMx: str(d["receiving-mx-hostname"]), receivingIp: str(d["receiving-ip"]), count: int(d["failed-session-count"]) })),
  };
}

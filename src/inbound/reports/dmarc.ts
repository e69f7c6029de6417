// Reads a DMARC aggregate report (RFC 7489 appendix C, and the older draft schema still in wide
// use) into a DmarcReport. Gmail, Microsoft and Yahoo differ in namespaces, the draft's
// policy_evaluated "reason" lists and empty elements; this reads what they share. Throws on
// anything that is not an aggregate report.
import { XMLParser } from "fast-xml-parser";
import { MAX_REPORT_ROWS, type DmarcReport, type DmarcRow } from "../../core/receiver-report.ts";

const parser = new XMLParser({
  ignoreAttributes: true, removeNSPrefix: true, parseTagValue: false, trimValues: true,
  processEntities: false,
  // Repeated elements: records, and the raw results under auth_results (not policy_evaluated's verdicts).
  isArray: (_name, jpath) => ["feedback.record", "feedback.record.auth_results.dkim", "feedback.record.auth_results.spf"].includes(String(jpath)),
});

type Node = Record<string, unknown>;
const obj = (v: unknown): Node => (v && typeof v === "object" && !Array.isArray(v) ? v as Node : {});
const text = (v: unknown): string => (typeof v === "string" || typeof v === "number" ? String(v).trim() : "");
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const seconds = (v: unknown): number => { const n = Number(text(v)); return Number.isFinite(n) && n >= 0 ? n * 1000 : NaN; };

export function parseDmarcXml(xml: string): DmarcReport {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new Error("a DMARC report carries no DOCTYPE");
  const feedback = obj(parser.parse(xml).feedback);
  const meta = obj(feedback.report_metadata);
  const policy = obj(feedback.policy_published);
  const range = obj(meta.date_range);
  const report: DmarcReport = {
    kind: "dmarc", domain: text(policy.domain).toLowerCase().replace(/\.$/, ""), orgName: text(meta.org_name),
    contact: text(meta.email), reportId: text(meta.report_id), begin: seconds(range.begin), end: seconds(range.end),
    policy: { p: text(policy.p), sp: text(policy.sp), pct: Number(text(policy.pct) || 100), adkim: text(policy.adkim) || "r", aspf: text(policy.aspf) || "r" },
    rows: list(feedback.record).map(readRecord),
  };
  if (!report.domain || !report.orgName || !report.reportId) throw new Error("not a DMARC aggregate report: no domain, org_name or report_id");
  if (!Number.isFinite(report.begin) || !Number.isFinite(report.end)) throw new Error("DMARC report: bad date_range");
  if (report.rows.length > MAX_REPORT_ROWS) throw new Error(`DMARC report: more than ${MAX_REPORT_ROWS} records`);
  return report;
}

function readRecord(v: unknown): DmarcRow {
  const record = obj(v);
  const row = obj(record.row);
  const evaluated = obj(row.policy_evaluated);
  const ids = obj(record.identifiers);
  const auth = obj(record.auth_results);
  const count = Number(text(row.count));
  const sourceIp = text(row.source_ip);
  if (!sourceIp || !Number.isInteger(count) || count < 0) throw new Error("DMARC report: a record without source_ip or count");
  return {
    sourceIp, count, disposition: text(evaluated.disposition) || "none",
    dkimAligned: text(evaluated.dkim) || "fail", spfAligned: text(evaluated.spf) || "fail",
    headerFrom: text(ids.header_from).toLowerCase(), envelopeFrom: text(ids.envelope_from).toLowerCase(), envelopeTo: text(ids.envelope_to).toLowerCase(),
    dkim: list(auth.dkim).map(obj).map((d) => ({ domain: text(d.domain).toLowerCase(), selector: text(d.selector), result: text(d.result) })),
    spf: list(auth.spf).map(obj).map((s) => ({ domain: text(s.domain).toLowerCase(), scope: text(s.scope) || "mfrom", result: text(s.result) })),
  };
}

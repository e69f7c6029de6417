// Reports that receivers send about a domain's mail: DMARC aggregate reports (RFC 7489 appendix C)
// and SMTP TLS reports (RFC 8460). The nouns the parsers make, the store keeps and the API shows.

/** One row of a DMARC aggregate report: mail from one source IP with one set of results. */
export interface DmarcRow {
  sourceIp: string;
  count: number;
  disposition: string;
  /** DKIM and SPF as DMARC evaluated them (aligned): "pass" | "fail". */
  dkimAligned: string;
  spfAligned: string;
  headerFrom: string;
  envelopeFrom: string;
  envelopeTo: string;
  /** The raw authentication results, as evaluated before alignment. */
  dkim: { domain: string; selector: string; result: string }[];
  spf: { domain: string; scope: string; result: string }[];
}

/** One TLS-RPT policy block: what the receiver saw of one policy (sts, tlsa, no-policy-found). */
export interface TlsPolicyResult {
  policyType: string;
  policyDomain: string;
  mxHosts: string[];
  successful: number;
  failed: number;
  failures: { resultType: string; sendingMta: string; receivingMx: string; receivingIp: string; count: number }[];
}

export interface ReceiverReportBase {
  /** The domain the report is about (DMARC's policy_published domain, TLS-RPT's policy domain). */
  domain: string;
  orgName: string;
  /** The reporter's contact address, when it gave one. */
  contact: string;
  reportId: string;
  /** The period covered, Unix milliseconds. */
  begin: number;
  end: number;
}

export interface DmarcReport extends ReceiverReportBase {
  kind: "dmarc";
  policy: { p: string; sp: string; pct: number; adkim: string; aspf: string };
  rows: DmarcRow[];
}

export interface TlsReport extends ReceiverReportBase {
  kind: "tls";
  policies: TlsPolicyResult[];
}

export type ReceiverReport = DmarcReport | TlsReport;
export type ReceiverReportKind = ReceiverReport["kind"];

/** A stored report: the parsed report and when it arrived. */
export type StoredReceiverReport = ReceiverReport & { receivedAt: number };

/** Rows one report may carry: a real daily report from the largest receivers has a few thousand. */
export const MAX_REPORT_ROWS = 20_000;
/** Bytes a report may decompress to (contract §12). */
export const MAX_REPORT_BYTES = 10 * 1024 * 1024;

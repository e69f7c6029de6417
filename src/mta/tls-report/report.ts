// The TLS-RPT report of one policy domain for one UTC day (RFC 8460 §4), its file name (§5.3) and
// the mail that carries it (§5.3: multipart/report; report-type="tlsrpt", gzip'd JSON attached).
// Pure: counts in, JSON and bytes out.
import { gzipSync } from "node:zlib";
import type { TlsSessionCount } from "../../core/tls-report-port.ts";

const DAY_MS = 86_400_000;
export const dayOf = (ms: number) => Math.floor(ms / DAY_MS);
const isoDay = (day: number, end = false) => new Date(day * DAY_MS + (end ? DAY_MS - 1000 : 0)).toISOString().replace(/\.\d{3}Z$/, "Z");

export interface ReportIdentity { organization: string; contact: string; reportId: string }

/** RFC 8460 §4: one policy object per (policy type, MX host, policy lines), with its summary and failures by result-type. */
export function buildReport(domain: string, day: number, rows: readonly TlsSessionCount[], who: ReportIdentity) {
  const groups = new Map<string, TlsSessionCount[]>();
  for (const r of rows) {
    const key = [r.policyType, r.mxHost, ...(r.policyString ?? [])].join("\u0000");
    if (r.policyDomain === domain) groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const policies = [...groups.values()].map((g) => {
    const ok = g.filter((r) => r.result === "success").reduce((n, r) => n + r.count, 0);
    const failures = g.filter((r) => r.result !== "success");
    return {
      policy: { "policy-type": g[0]!.policyType, "policy-string": g[0]!.policyString ?? [], "policy-domain": domain, "mx-host": [g[0]!.mxHost] },
      summary: { "total-successful-session-count": ok, "total-failure-session-count": failures.reduce((n, r) => n + r.count, 0) },
      "failure-details": failures.map((r) => ({ "result-type": r.result, ...(r.sendingIp ? { "sending-mta-ip": r.sendingIp } : {}),
        ...(r.receivingIp ? { "receiving-ip": r.receivingIp } : {}), "receiving-mx-hostname": r.mxHost, "failed-session-count": r.count })),
    };
  });
  return {
    "organization-name": who.organization,
    "date-range": { "start-datetime": isoDay(day), "end-datetime": isoDay(day, true) },
    "contact-info": who.contact,
    "report-id": who.reportId,
    policies,
  };
}

export type TlsReport = ReturnType<typeof buildReport>;

/**
 * §5.3: `submitter!policy-domain!begin-timestamp!end-timestamp[!unique-id].json.gz`, where
 * unique-id = 1*(ALPHA / DIGIT): anything else in `unique` is left out (a dot there would read as
 * the start of the extension).
 */
export function reportFileName(submitter: string, domain: string, day: number, unique: string): string {
  const id = unique.replace(/[^A-Za-z0-9]/g, "");
  return `${submitter}!${domain}!${day * 86_400}!${(day + 1) * 86_400 - 1}${id ? `!${id}` : ""}.json.gz`;
}

export const gzipReport = (report: TlsReport): Buffer => gzipSync(Buffer.from(JSON.stringify(report)));

/** The report as a mail (RFC 8460 §5.3): the TLS-Report-Domain and -Submitter headers, the subject it names, the gzip'd JSON attached. */
export function reportMail(o: { from: string; to: string; domain: string; submitter: string; report: TlsReport; file: string; gz: Buffer; date: Date; messageId: string }): Uint8Array {
  const boundary = `tlsrpt-${o.messageId.replace(/\W/g, "")}`;
  const b64 = o.gz.toString("base64").replace(/.{76}/g, "$&\r\n");
  const lines = [
    `From: ${o.from}`, `To: ${o.to}`, `Date: ${o.date.toUTCString().replace("GMT", "+0000")}`, `Message-ID: <${o.messageId}>`,
    `Subject: Report Domain: ${o.domain} Submitter: ${o.submitter} Report-ID: <${o.report["report-id"]}>`,
    `TLS-Report-Domain: ${o.domain}`, `TLS-Report-Submitter: ${o.submitter}`, "MIME-Version: 1.0",
    `Content-Type: multipart/report; report-type="tlsrpt"; boundary="${boundary}"`, "",
    `--${boundary}`, "Content-Type: text/plain; charset=utf-8", "",
    `This is an aggregate TLS report from ${o.submitter} for ${o.domain} (RFC 8460).`, "",
    `--${boundary}`, `Content-Type: application/tlsrpt+gzip; name="${o.file}"`, "Content-Transfer-Encoding: base64",
    `Content-Disposition: attachment; filename="${o.file}"`, "", b64, "", `--${boundary}--`, "",
  ];
  return new TextEncoder().encode(lines.join("\r\n"));
}

/** The address of a `mailto:` rua (RFC 6068): percent-decoded, without `?` header fields; null for any other URI. */
export function mailtoAddress(uri: string): string | null {
  if (!/^mailto:/i.test(uri)) return null;
  try { return decodeURIComponent(uri.slice(7).split("?")[0]!); } catch { return null; }
}

/** RFC 8460 §3: `v=TLSRPTv1; rua=mailto:a@b,https://c/` → the URIs, or null when the record is not TLS-RPT. */
export function parseTlsRpt(txt: string): string[] | null {
  const fields = txt.split(";").map((f) => f.trim()).filter(Boolean);
  if (fields[0]?.replace(/\s/g, "") !== "v=TLSRPTv1") return null;
  const rua = fields.find((f) => /^rua\s*=/i.test(f));
  if (!rua) return null;
  return rua.replace(/^rua\s*=\s*/i, "").split(",").map((u) => u.trim()).filter((u) => /^(mailto:|https:)/i.test(u));
}

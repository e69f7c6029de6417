// The dmarc@ and tlsrpt@ mailboxes of a bounce domain (the addresses `domain dns` publishes in
// the DMARC rua= and TLS-RPT records): which addresses they are, and what a report sent there
// becomes. A report that does not parse whole is refused with a 5xx and a warning in the log,
// never half-stored (contract §12).
import type { Domain } from "../../core/model.ts";
import type { Logger } from "../../log.ts";
import type { ReceiverReportKind } from "../../core/receiver-report.ts";
import type { ReceiverReportService } from "../../core/receiver-reports.ts";
import { readReceiverReport, reportKindOf } from "./receive.ts";

const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

export function createReceiverReportMailbox(deps: { service: ReceiverReportService; getDomain: (name: string) => Promise<Domain | null>;
  bounceDomain: string; log: Logger }) {
  /** The bounce domain is the configured one, else bounces.<domain> of a domain we send for. */
  async function isBounceDomain(host: string): Promise<boolean> {
    if (deps.bounceDomain) return host === deps.bounceDomain.toLowerCase();
    return host.startsWith("bounces.") && (await deps.getDomain(host.slice("bounces.".length))) !== null;
  }
  return {
    /** The kind of report `address` takes, or null when it is not one of these mailboxes. */
    async kindOf(address: string): Promise<ReceiverReportKind | null> {
      const kind = reportKindOf(address);
      return kind && (await isBounceDomain(address.slice(address.lastIndexOf("@") + 1).toLowerCase())) ? kind : null;
    },
    /** Reads and stores one report mail; throws an SMTP error (5xx) when it is not a whole report. */
    async receive(raw: Uint8Array, kind: ReceiverReportKind, from: string): Promise<string> {
      let report;
      try {
        report = await readReceiverReport(raw, kind);
      } catch (e) {
        deps.log.warn("refused a malformed receiver report", { kind, from, error: String((e as Error)?.message ?? e) });
        throw smtpError(550, `5.6.0 not a readable ${kind === "dmarc" ? "DMARC aggregate" : "TLS-RPT"} report: ${(e as Error)?.message ?? e}`);
      }
      const result = await deps.service.ingest(report);
      if (result === "unknown-domain") deps.log.warn("dropped a receiver report for a domain not served here", { kind, domain: report.domain, from });
      else deps.log.info(result === "stored" ? "receiver report stored" : "duplicate receiver report ignored",
        { kind, domain: report.domain, org: report.orgName, reportId: report.reportId });
      return result === "unknown-domain" ? "2.0.0 report dropped: not a domain served here" : "2.0.0 report received";
    },
  };
}

export type ReceiverReportMailbox = ReturnType<typeof createReceiverReportMailbox>;

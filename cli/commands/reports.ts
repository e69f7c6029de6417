// `postern reports dmarc|tls --domain D`: the receivers' reports kept for a domain (contract §12).
import type { Command } from "commander";
import { action } from "../context.ts";
import { isoTime, table, UsageError } from "../output.ts";
import { reportPeriod, type ReceiverReportService } from "../../src/core/receiver-reports.ts";
import type { DmarcReport, ReceiverReportKind, TlsReport } from "../../src/core/receiver-report.ts";

interface Options { domain: string; from?: string; to?: string }

export function registerReports(program: Command) {
  const reports = program.command("reports").description("receivers' DMARC aggregate and TLS reports about a domain");
  for (const [name, kind, what] of [["dmarc", "dmarc", "DMARC aggregate reports"], ["tls", "tls", "SMTP TLS reports (TLS-RPT)"]] as const) {
    reports.command(name).description(`${what} for a domain (default: the last 30 days)`)
      .requiredOption("--domain <domain>", "the domain")
      .option("--from <time>", "from (Unix seconds or ISO 8601 date)").option("--to <time>", "to (Unix seconds or ISO 8601 date)")
      .action(action(async (ctx, o: Options) => {
        const app = await ctx.app();
        const domain = await app.domains.get(o.domain);
        if (!domain) throw new Error(`domain ${o.domain} not found`);
        let period;
        try { period = reportPeriod(o.from, o.to, app.now()); } catch (e) { throw new UsageError((e as Error).message); }
        const items = await app.receiverReports.list(domain, kind as ReceiverReportKind, period.from, period.to);
        const summary = await app.receiverReports.summary(domain, period.from, period.to);
        ctx.out.print({ items }, () => render(kind, items as (DmarcReport | TlsReport)[], summary));
      }));
  }
}

type Summary = Awaited<ReturnType<ReceiverReportService["summary"]>>;

function render(kind: ReceiverReportKind, items: (DmarcReport | TlsReport)[], summary: Summary): string {
  if (!items.length) return "(no reports)";
  const list = table(items.map((r) => ({ reporter: r.orgName, report_id: r.reportId, begin: isoTime(r.begin), end: isoTime(r.end) })),
    ["reporter", "report_id", "begin", "end"]);
  if (kind === "dmarc") {
    const sources = summary.sources;
    return `${list}\n\nsources sending as the domain:\n${table(sources.map((s) => ({ source: s.sourceIp, ours: s.own ? "yes" : "", messages: s.messages,
      pass: `${Math.round(s.passRate * 100)}%`, reporters: s.reporters.join(", ") })), ["source", "ours", "messages", "pass", "reporters"])}`;
  }
  const failures = summary.tlsFailures;
  const sessions = summary.sessions;
  return `${list}\n\nsessions: ${sessions.successful} successful, ${sessions.failed} failed${failures.length
    ? `\n${table(failures.map((f) => ({ receiving_mx: f.receivingMx, result: f.resultType, sessions: f.sessions })), ["receiving_mx", "result", "sessions"])}` : ""}`;
}

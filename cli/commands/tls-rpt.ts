// `postern tls-rpt send`: the TLS-RPT reports (RFC 8460) of the current UTC day so far, at once
// (the server sends the previous day's by itself, docs/outbound-tls.md).
import type { Command } from "commander";
import { action } from "../context.ts";
import { table } from "../output.ts";
import { AppError } from "../../src/core/errors.ts";
import { dayOf } from "../../src/mta/tls-report/report.ts";

export function registerTlsRpt(program: Command) {
  const cmd = program.command("tls-rpt").description("TLS-RPT reports (RFC 8460) to the domains postern delivers to ([mta] tls_reports)");
  cmd.command("send").description("send the reports of the current UTC day so far, to every domain whose _smtp._tls record asks for one")
    .action(action(async (ctx) => {
      const app = await ctx.app();
      if (!app.tlsReporter) throw new AppError("invalid", "TLS-RPT is off: set [mta] tls_reports = true");
      const sent = await app.tlsReporter.sendDay(dayOf(app.now()));
      ctx.out.print({ reports: sent }, () => sent.length
        ? table(sent.map((s) => ({ domain: s.domain, to: s.to, result: s.ok ? "sent" : `failed: ${s.error}` })), ["domain", "to", "result"])
        : "no domain sent to today publishes a TLS-RPT address");
      if (sent.some((s) => !s.ok)) process.exitCode = 1;
    }));
}

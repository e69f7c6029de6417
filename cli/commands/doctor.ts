// `postern doctor [--domain D]` and `postern blocklists` (contract §13): every check of the
// registry run now; exit 1 when any check is `error`. Both read the same service as GET /doctor.
import type { Command } from "commander";
import { action } from "../context.ts";
import { table, UsageError } from "../output.ts";
import type { CheckResult } from "../../src/doctor/index.ts";

const MARK: Record<string, string> = { ok: "ok", warn: "WARN", error: "ERROR", unknown: "??" };

function render(checks: CheckResult[]): string {
  if (!checks.length) return "(no checks)";
  return checks.map((c) => `${MARK[c.severity]!.padEnd(6)} ${c.id.padEnd(10)} ${c.subject}\n       ${c.summary}${c.fix ? `\n       fix: ${c.fix}` : ""}`).join("\n");
}

export function registerDoctor(program: Command) {
  program.command("doctor").description("check what decides whether mail lands (port 25, PTR, SPF, DKIM, DMARC, bounce MX, tracking, blocklists); exit 1 on an error")
    .option("--domain <domain>", "only this domain's checks (and the machine's)")
    .action(action(async (ctx, o: { domain?: string }) => {
      const app = await ctx.app();
      if (o.domain && !(await app.domains.get(o.domain))) throw new UsageError(`domain ${o.domain} not found`);
      const checks = await app.doctor.run({ domain: o.domain });
      ctx.out.print({ checks }, () => render(checks));
      if (checks.some((c) => c.severity === "error")) process.exitCode = 1;
    }));
  program.command("blocklists").description("every egress address and sending, bounce and tracking host in the configured blocklists, asked now")
    .action(action(async (ctx) => {
      const app = await ctx.app();
      const items = await app.doctor.blocklists(true);
      ctx.out.print({ items }, () => (items.length ? table(items.map((i) => ({ ...i, cause: i.cause.slice(0, 60) })),
        ["subject", "kind", "zone", "state", "answer", "first_seen", "cause"]) : "(no blocklists configured)"));
    }));
}

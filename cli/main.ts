#!/usr/bin/env bun
// The postern command line: commander root with the global flags (--config, --json), the
// command groups, and the contract's exit codes (0 ok, 1 user error, 2 usage error).
import "./jsc-tuning.ts"; // first: `serve` may replace the process before the rest is loaded
import { Command, CommanderError } from "commander";
import { registerServer } from "./commands/server.ts";
import { registerDomain } from "./commands/domain.ts";
import { registerAccess } from "./commands/access.ts";
import { registerMail } from "./commands/mail.ts";
import { registerInsight } from "./commands/insight.ts";
import { registerReports } from "./commands/reports.ts";
import { registerEventWebhook } from "./commands/event-webhook.ts";
import { registerBackup } from "./commands/backup.ts";
import { registerEgress } from "./commands/egress.ts";
import { registerTls } from "./commands/tls.ts";
import { registerAlerts } from "./commands/alerts.ts";
import { registerAudit } from "./commands/audit.ts";
import { registerUser } from "./commands/user.ts";
import { registerTenant } from "./commands/tenant.ts";
import { registerDoctor } from "./commands/doctor.ts";
import { registerTlsRpt } from "./commands/tls-rpt.ts";
import { exitCodeFor } from "./output.ts";
import { release } from "./version.ts";

/** The release is looked up (git, from source) only when asked for: every other command starts without it. */
export function buildProgram(argv: string[] = []): Command {
  const asked = argv.some((a) => a === "--version" || a === "-V");
  const program = new Command("postern")
    .description("self-hosted email delivery: SendGrid, Mailgun, SparkPost and native APIs on its own MTA")
    .version(asked ? release() : "")
    .option("--config <file>", "config file (else $POSTERN_CONFIG, ./postern.toml, /etc/postern/postern.toml, embedded defaults)")
    .option("--json", "machine-readable output on stdout")
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  registerServer(program);
  registerDomain(program);
  registerAccess(program);
  registerMail(program);
  registerReports(program);
  registerInsight(program);
  registerEventWebhook(program);
  registerBackup(program);
  registerEgress(program);
  registerTls(program);
  registerAlerts(program);
  registerAudit(program);
  registerUser(program);
  registerTenant(program);
  registerDoctor(program);
  registerTlsRpt(program);
  // Global flags work after the command too: every subcommand knows them.
  const addGlobals = (cmd: Command) => {
    for (const sub of cmd.commands) {
      sub.option("--config <file>", "config file").option("--json", "machine-readable output on stdout").exitOverride();
      addGlobals(sub);
    }
  };
  addGlobals(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram(argv);
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.code === "commander.help") return 0;
      return 2;
    }
    return exitCodeFor(err);
  }
}

if (import.meta.main) {
  const code = await main(process.argv);
  process.exit(code);
}

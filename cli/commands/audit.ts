// `postern audit`: the audit log (who changed what, docs/team.md), newest first, with the filters of
// GET /audit. Reading it is not a change, so it records nothing.
import type { Command } from "commander";
import { action } from "../context.ts";
import { table } from "../output.ts";

interface AuditOptions { from?: string; to?: string; actor?: string; action?: string; limit?: string; cursor?: string }

export function registerAudit(program: Command) {
  program.command("audit").description("the audit log: changes made through the APIs, the console and the CLI, newest first")
    .option("--from <when>", "earliest entry: ISO 8601 or Unix seconds")
    .option("--to <when>", "latest entry: ISO 8601 or Unix seconds")
    .option("--actor <who>", "an actor kind (user, key, cli) or an actor id")
    .option("--action <action>", "an action (key.create) or a family (key)")
    .option("--limit <n>", "entries to show, 1 to 1000", "100")
    .option("--cursor <cursor>", "next_cursor of a previous page")
    .action(action(async (ctx, o: AuditOptions) => {
      const page = await (await ctx.app()).audit.list(o);
      const rows = page.items.map((e) => ({ id: e.id, at: e.at.replace(/\.\d+Z$/, "Z"), actor: `${e.actor.kind}:${e.actor.id}`, action: e.action, target: e.target, ip: e.ip }));
      ctx.out.print(page, () => table(rows, ["id", "at", "actor", "action", "target", "ip"]) + (page.next_cursor ? `\nmore: --cursor ${page.next_cursor}` : ""));
    }));
}

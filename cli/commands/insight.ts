// `postern events`, `postern stats` (the read side) and `postern validate` (the validation engine).
import type { Command } from "commander";
import { readFileSync } from "node:fs";
import { action } from "../context.ts";
import { isoTime, table, UsageError } from "../output.ts";
import { reportedCode, reportedDescription } from "../../src/webhooks/formats/reported.ts";

const DAY_MS = 86_400_000;
const EVENT_TYPES = ["accepted", "delivered", "deferred", "failed", "opened", "clicked", "unsubscribed", "complained"];

/** A whole number in [min, max] from an option, else a usage error naming the option. */
export function intOption(value: string, flag: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < min || n > max) throw new UsageError(`${flag} takes a whole number from ${min} to ${max}, got "${value}"`);
  return n;
}

export function registerInsight(program: Command) {
  program.command("events").description("search events (newest first)")
    .requiredOption("--domain <domain>", "the domain").option("--recipient <address>", "only this recipient")
    .option("--event <type>", "accepted, delivered, deferred, failed, opened, clicked, unsubscribed, complained")
    .option("--limit <n>", "at most n events", "50")
    .action(action(async (ctx, o: { domain: string; recipient?: string; event?: string; limit: string }) => {
      if (o.event && !EVENT_TYPES.includes(o.event)) throw new UsageError(`--event takes one of ${EVENT_TYPES.join(", ")}, got "${o.event}"`);
      const limit = intOption(o.limit, "--limit", 1, 10_000);
      const app = await ctx.app();
      const list = await app.activity.events(o.domain, { recipient: o.recipient, types: o.event ? [o.event] : undefined, limit });
      const rows = list.map((e) => ({ time: isoTime(e.timestamp), event: e.type, recipient: e.recipient, message: e.messageId,
        code: reportedCode(e) ?? null, detail: e.url ?? reportedDescription(e) ?? null, bot: e.isBot ?? null }));
      ctx.out.print(list, () => table(rows, ["time", "event", "recipient", "message", "code", "bot", "detail"]));
    }));

  program.command("stats").description("event counts (bots left out) over the last days")
    .option("--domain <domain>", "one domain (default: all)").option("--days <n>", "how many days back", "7")
    .action(action(async (ctx, o: { domain?: string; days: string }) => {
      const days = intOption(o.days, "--days", 1, 3650);
      const app = await ctx.app();
      const end = app.now();
      const counts = await app.activity.counts(o.domain ?? null, end - days * DAY_MS, end);
      const totals: Record<string, number> = {};
      for (const c of counts) totals[c.type] = (totals[c.type] ?? 0) + c.count;
      ctx.out.print(totals, () => Object.entries(totals).map(([k, v]) => `${k.padEnd(14)} ${v}`).join("\n") || "(no events)");
    }));

  program.command("validate [addresses...]").description("validate addresses (syntax, DNS, disposable, role, free, typos)")
    .option("--file <file>", "read addresses from a file, one per line")
    .action(action(async (ctx, addresses: string[], o: { file?: string }) => {
      const list = [...addresses, ...(o.file ? readFileSync(o.file, "utf8").split(/\r?\n/).map((l) => l.trim()).filter(Boolean) : [])];
      if (!list.length) throw new UsageError("give addresses or --file");
      const app = await ctx.app();
      const results: Awaited<ReturnType<typeof app.validator.validate>>[] = [];
      for (const [i, a] of list.entries()) {
        results.push(await app.validator.validate(a));
        if (o.file && !ctx.out.json && process.stderr.isTTY) process.stderr.write(`\r${progressBar(i + 1, list.length)}`);
      }
      if (o.file && !ctx.out.json && process.stderr.isTTY) process.stderr.write("\n");
      const { checks: _c, ...first } = results[0]!;
      ctx.out.print(results.length === 1 && !o.file ? first : results.map(({ checks: _x, ...r }) => r), () => table(results.map((r) => ({
        email: r.email, result: r.result, reason: r.reason, sendex: r.sendex, role: r.role, free: r.free, disposable: r.disposable, did_you_mean: r.did_you_mean,
      })), ["email", "result", "reason", "sendex", "role", "free", "disposable", "did_you_mean"]));
    }));
}

function progressBar(done: number, total: number): string {
  const width = 30;
  const filled = Math.round((done / total) * width);
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total}`;
}

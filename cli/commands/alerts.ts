// `postern alerts list|add|rm`: the alert rules (built-in and configured) and the open alerts, over
// the same alerts service as the native API (docs/alerts.md).
import type { Command } from "commander";
import { action } from "../context.ts";
import { table } from "../output.ts";
import { AppError } from "../../src/core/errors.ts";
import { ruleView } from "../../src/alerts/rule-input.ts";

export function registerAlerts(program: Command) {
  const alerts = program.command("alerts").description("alert rules and open alerts (docs/alerts.md)");
  alerts.command("list").description("the built-in and configured rules, and the open alerts")
    .action(action(async (ctx) => {
      const app = await ctx.app();
      const rules = await app.alerts.ruleViews();
      const open = await app.alerts.incidents(true);
      ctx.out.print({ rules, alerts: open }, () => `${table(rules.map((r) => ({ ...r, domain: r.domain ?? "*", built_in: r.built_in ? "yes" : "" })),
        ["id", "metric", "threshold", "window", "min_volume", "domain", "built_in"])}\n\n${open.length
        ? table(open, ["id", "rule", "state", "subject", "value", "threshold", "fired_at"]) : "no open alerts"}`);
    }));
  alerts.command("add").description("add a rule: rates as fractions (0.05), queue_age in seconds, certificate in days, dkim_pending in hours")
    .requiredOption("--metric <metric>", "hard_bounce_rate, block_rate, complaint_rate, queue_age, blocklist, check, certificate or dkim_pending")
    .option("--threshold <n>", "fires past it (default: the built-in rule's)")
    .option("--window <duration>", "the rates' window, e.g. 1h (default 1h)")
    .option("--min-volume <n>", "messages in the window before a rate may fire (default 100 for rates)")
    .option("--domain <name>", "only this sending domain")
    .action(action(async (ctx, o: { metric: string; threshold?: string; window?: string; minVolume?: string; domain?: string }) => {
      const app = await ctx.app();
      const rule = ruleView(await app.alerts.createRule({ metric: o.metric, threshold: o.threshold, window: o.window, min_volume: o.minVolume,
        domain: o.domain }, "cli"));
      ctx.out.print(rule, () => `added alert rule ${rule.id}: ${rule.metric} > ${rule.threshold} over ${rule.window}, min volume ${rule.min_volume}` +
        (rule.domain ? ` for ${rule.domain}` : ""));
    }));
  alerts.command("rm").description("delete a configured rule and its alerts").argument("<id>")
    .action(action(async (ctx, id: string) => {
      const app = await ctx.app();
      if (!(await app.alerts.deleteRule(id))) throw new AppError("not_found", `no configured alert rule ${id} (built-in rules cannot be deleted)`);
      ctx.out.print({ deleted: id }, () => `deleted alert rule ${id}`);
    }));
}

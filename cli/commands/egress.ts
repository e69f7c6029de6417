// `postern egress list`: the egress sources ([mta.egress]) with their pool, warm-up day, hourly
// cap and sends this UTC hour (counted in the store, every node's together).
import type { Command } from "commander";
import { action } from "../context.ts";
import { table } from "../output.ts";

export function registerEgress(program: Command) {
  const egress = program.command("egress").description("egress sources (local addresses) and pools");
  egress.command("list").description("each source: address, pool, warm-up day, hourly cap, sends this hour, and when one at its cap sends again")
    .action(action(async (ctx) => {
      const sources = await (await ctx.app()).egress.list();
      ctx.out.print({ sources }, () => table(sources.map((s) => ({ ...s, warmup_day: s.warmup_day ?? "warm", hour_cap: s.hour_cap ?? "-", pool: s.pool ?? "-",
        waits_until: s.waits_until ?? "-" })), ["name", "address", "pool", "warmup_day", "hour_cap", "hour_sent", "waits_until"]));
    }));
}

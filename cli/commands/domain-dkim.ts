// `postern domain dkim …`: rotate a domain's DKIM keys and list them with their lifecycle state.
import type { Command } from "commander";
import type { DkimKeyView } from "../../src/core/dkim-rotation.ts";
import { action } from "../context.ts";
import { fittedTable } from "../output.ts";

// 80 columns: days only, and the record's value left to --json (or `domain dns`).
const day = (iso: string | null) => iso?.slice(0, 10) ?? "-";
const keysHuman = (keys: DkimKeyView[]) => fittedTable(keys.map((k) => ({ selector: k.selector, algorithm: k.algorithm, state: k.state,
  created: day(k.created_at), activated: day(k.activated_at), retire_at: day(k.retire_at) })),
["selector", "algorithm", "state", "created", "activated", "retire_at"], ["selector"]);

export function registerDomainDkim(domain: Command) {
  const dkim = domain.command("dkim").description("a domain's DKIM keys: pending → active → retiring → retired");

  dkim.command("rotate <name>").description("add a pending key with a new selector per algorithm; it signs once DNS shows its record")
    .option("--now", "activate the new keys at once, without waiting for DNS")
    .action(action(async (ctx, name: string, opts: { now?: boolean }) => {
      const keys = await (await ctx.app()).dkimKeys.rotate(name, { now: Boolean(opts.now) });
      ctx.out.print({ keys }, () => (opts.now ? `${name}: new keys active now; the old ones retire after [dkim] retire_after\n`
        : `${name}: publish these records; each key signs new mail once DNS shows it (\`postern domain dkim list ${name}\`):\n`)
        + keys.map((k) => `${k.record.name} TXT "${k.record.value}"`).join("\n"));
    }));

  dkim.command("list <name>").description("the domain's keys with their state and dates (--json adds each TXT record)")
    .action(action(async (ctx, name: string) => {
      const keys = await (await ctx.app()).dkimKeys.list(name);
      ctx.out.print({ keys }, () => keysHuman(keys));
    }));
}

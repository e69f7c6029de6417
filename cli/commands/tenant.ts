// `postern tenant …`: tenants (subaccounts) from the machine (docs/tenants.md). The same tenants
// SendGrid's subusers, Mailgun's and SparkPost's subaccounts show; a tenant is named by id or name.
import type { Command } from "commander";
import { action } from "../context.ts";
import { table } from "../output.ts";
import type { Tenant } from "../../src/core/tenants.ts";
import { invalid } from "../../src/core/errors.ts";

const tenantJson = (t: Tenant) => ({ id: t.id, name: t.name, status: t.status, created_at: new Date(t.createdAt).toISOString(),
  ...(t.monthlyLimit !== undefined ? { monthly_limit: t.monthlyLimit } : {}), ...(t.pool ? { pool: t.pool } : {}) });

/** `--monthly-limit`: a whole number, or `none` to remove the limit. */
function monthlyLimit(text: string): number | null {
  if (text.trim().toLowerCase() === "none") return null;
  if (!/^\d{1,15}$/.test(text.trim())) throw invalid("--monthly-limit takes a whole number of messages, or none", "monthly_limit");
  return Number(text.trim());
}

export function registerTenant(program: Command) {
  const tenant = program.command("tenant").description("tenants (subaccounts): tenant 0 is the primary account (docs/tenants.md)");

  tenant.command("add <name>").description("add a tenant; prints its id").action(action(async (ctx, name: string) => {
    const t = await (await ctx.app()).tenants.add(name);
    ctx.out.print(tenantJson(t), () => `added tenant ${t.id} (${t.name})`);
  }));

  tenant.command("list").description("list tenants").action(action(async (ctx) => {
    const list = await (await ctx.app()).tenants.list();
    ctx.out.print({ tenants: list.map((t) => ({ id: t.id, name: t.name, status: t.status })) }, () => table(list.map(tenantJson), ["id", "name", "status", "created_at"]));
  }));

  tenant.command("set <tenant>").description("rename a tenant, change its status (active, suspended, terminated), its monthly limit or its pool")
    .option("--name <name>", "its new name")
    .option("--status <status>", "active, suspended (read-only, cannot send) or terminated (its keys stop working; data kept read-only)")
    .option("--monthly-limit <n>", "messages it may send per calendar month (UTC); none: no limit")
    .option("--pool <name>", "the egress pool its mail leaves through unless a message or its domain names one; none: the default")
    .action(action(async (ctx, ref: string, o: { name?: string; status?: string; monthlyLimit?: string; pool?: string }) => {
      const app = await ctx.app();
      let t = await app.tenants.require(ref);
      if (o.name !== undefined) t = await app.tenants.rename(t.id, o.name);
      if (o.status !== undefined) t = await app.tenants.setStatus(t.id, o.status);
      if (o.monthlyLimit !== undefined) t = await app.tenantQuota.setLimit(t.id, monthlyLimit(o.monthlyLimit));
      if (o.pool !== undefined) t = await app.tenants.setPool(t.id, o.pool.trim().toLowerCase() === "none" ? null : o.pool);
      const extra = `${t.monthlyLimit !== undefined ? `, ${t.monthlyLimit} messages a month` : ""}${t.pool ? `, pool ${t.pool}` : ""}`;
      ctx.out.print(tenantJson(t), () => `tenant ${t.id} (${t.name}): ${t.status}${extra}`);
    }));

  tenant.command("suspend <tenant>").description("suspend a tenant: read-only, it cannot send").action(action(async (ctx, ref: string) => {
    const t = await (await ctx.app()).tenants.suspend(ref);
    ctx.out.print(tenantJson(t), () => `tenant ${t.id} (${t.name}) suspended`);
  }));
}

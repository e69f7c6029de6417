// `postern tenant …`: tenants (subaccounts) from the machine (docs/tenants.md). The same tenants
// SendGrid's subusers, Mailgun's and SparkPost's subaccounts show; a tenant is named by id or name.
import type { Command } from "commander";
import { action } from "../context.ts";
import { table } from "../output.ts";
import type { Tenant } from "../../src/core/tenants.ts";

const tenantJson = (t: Tenant) => ({ id: t.id, name: t.name, status: t.status, created_at: new Date(t.createdAt).toISOString() });

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

  tenant.command("set <tenant>").description("rename a tenant or change its status (active, suspended, terminated)")
    .option("--name <name>", "its new name")
    .option("--status <status>", "active, suspended (read-only, cannot send) or terminated (its keys stop working; data kept read-only)")
    .action(action(async (ctx, ref: string, o: { name?: string; status?: string }) => {
      const app = await ctx.app();
      let t = await app.tenants.require(ref);
      if (o.name !== undefined) t = await app.tenants.rename(t.id, o.name);
      if (o.status !== undefined) t = await app.tenants.setStatus(t.id, o.status);
      ctx.out.print(tenantJson(t), () => `tenant ${t.id} (${t.name}): ${t.status}`);
    }));

  tenant.command("suspend <tenant>").description("suspend a tenant: read-only, it cannot send").action(action(async (ctx, ref: string) => {
    const t = await (await ctx.app()).tenants.suspend(ref);
    ctx.out.print(tenantJson(t), () => `tenant ${t.id} (${t.name}) suspended`);
  }));
}

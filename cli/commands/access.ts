// `postern key …` and `postern credential …`: API keys and SMTP submission credentials.
import type { Command } from "commander";
import { action } from "../context.ts";
import { isoTime, table, UsageError } from "../output.ts";

export function registerAccess(program: Command) {
  const key = program.command("key").description("API keys: account (primary) and domain (sending) keys");

  key.command("create").description("create a key and print its secret once")
    .option("--account", "an account (primary) key: acts on every domain")
    .option("--domain <name>", "a domain (sending) key: acts only on this domain")
    .option("--label <label>", "a note to recognise the key by")
    .option("--tenant <tenant>", "the existing tenant (id or name) the key belongs to and acts for (default: a --domain's tenant, else the primary, 0)")
    .action(action(async (ctx, o: { account?: boolean; domain?: string; label?: string; tenant?: string }) => {
      if (Boolean(o.account) === Boolean(o.domain)) throw new UsageError("give exactly one of --account or --domain NAME");
      const app = await ctx.app();
      // A tenant that exists: a key of an id no tenant has yet would belong to the next tenant made.
      const tenant = o.tenant !== undefined ? (await app.tenants.require(o.tenant)).id : o.domain ? (await app.domains.get(o.domain))?.tenantId : undefined;
      const k = await app.access.createKey({ kind: o.account ? "account" : "domain", domain: o.domain, label: o.label, tenant });
      ctx.out.print({ id: k.id, key: k.key, kind: k.kind, domain: k.domain, label: k.label, tenant: k.tenant ?? 0 },
        () => `${k.key}\n(id ${k.id}, ${k.kind} key${k.domain ? ` for ${k.domain}` : ""} of tenant ${k.tenant ?? 0}; the secret is not shown again)`);
    }));

  key.command("list").description("list keys (secrets are never shown again)").action(action(async (ctx) => {
    const rows = (await (await ctx.app()).access.listKeys()).map((k) => ({ id: k.id, kind: k.kind, domain: k.domain, label: k.label,
      created_at: isoTime(k.createdAt), last_used_at: isoTime(k.lastUsedAt) }));
    ctx.out.print(rows, () => table(rows, ["id", "kind", "domain", "label", "created_at", "last_used_at"]));
  }));

  key.command("revoke <id>").description("revoke a key; a running server refuses it at once").action(action(async (ctx, id: string) => {
    await (await ctx.app()).access.revokeKey(id);
    ctx.out.print({ revoked: id }, () => `revoked ${id}`);
  }));

  const cred = program.command("credential").description("SMTP submission credentials (user name LOGIN@DOMAIN)");

  cred.command("add <domain> <login>").description("add or reset a credential; prints the password when generated")
    .option("--password <password>", "the password, at least 12 characters (default: 24 random characters, printed once)")
    .action(action(async (ctx, domain: string, login: string, o: { password?: string }) => {
      const c = await (await ctx.app()).access.setCredential(domain, login, o.password);
      ctx.out.print(c, () => `${c.login}${o.password ? "" : `\npassword: ${c.password}`}`);
    }));

  cred.command("list <domain>").description("list a domain's SMTP credentials").action(action(async (ctx, domain: string) => {
    const rows = (await (await ctx.app()).access.listCredentials(domain)).map((c) => ({ login: c.login, created_at: isoTime(c.createdAt) }));
    ctx.out.print(rows, () => table(rows, ["login", "created_at"]));
  }));

  cred.command("delete <domain> <login>").description("delete an SMTP credential").action(action(async (ctx, domain: string, login: string) => {
    await (await ctx.app()).access.deleteCredential(domain, login);
    ctx.out.print({ deleted: login }, () => `deleted ${login}`);
  }));
}

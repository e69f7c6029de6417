// `postern user …`: console users from the machine, without the console (docs/team.md). The
// operator may do anything here, including resetting a lost owner password.
import type { Command } from "commander";
import { action } from "../context.ts";
import { table } from "../output.ts";
import { newSecret } from "../../src/core/ids.ts";

/** The password piped on stdin (one line; the trailing newline is not part of it). */
async function stdinPassword(): Promise<string> {
  const text = await Bun.stdin.text();
  return text.replace(/\r?\n$/, "");
}


export function registerUser(program: Command) {
  const user = program.command("user").description("console users: email and password, TOTP, OpenID Connect, roles (docs/team.md)");

  user.command("add <email>").description("add a console user; prints a generated password once unless --password-stdin")
    .requiredOption("--role <role>", "owner, admin, developer or analyst")
    .option("--tenant <tenant>", "the one tenant (id or name) the membership is for (default: every tenant)")
    .option("--password-stdin", "read the password (12 to 256 characters) from standard input")
    .action(action(async (ctx, email: string, o: { role: string; tenant?: string; passwordStdin?: boolean }) => {
      const password = o.passwordStdin ? await stdinPassword() : newSecret(15);
      const app = await ctx.app();
      // A tenant that exists: a membership of an id no tenant has yet would bind the user to the next tenant made.
      const tenant = o.tenant === undefined ? null : (await app.tenants.require(o.tenant)).id;
      const u = await app.team.users.add(null, { email, role: o.role, tenant, password });
      ctx.out.print({ id: u.id, email: u.email, role: u.role, tenant: u.tenant, ...(o.passwordStdin ? {} : { password }) },
        () => `added ${u.email} (${u.role})${o.passwordStdin ? "" : `\npassword: ${password}`}`);
    }));

  user.command("list").description("list console users").action(action(async (ctx) => {
    const users = await (await ctx.app()).team.users.list();
    ctx.out.print({ users }, () => table(users.map((u) => ({ ...u, tenant: u.tenant ?? "all" })), ["id", "email", "role", "tenant", "totp", "oidc"]));
  }));

  user.command("reset <email>").description("set a new password (printed once unless --password-stdin), e.g. a lost owner password")
    .option("--password-stdin", "read the new password from standard input")
    .option("--totp", "also remove the user's TOTP and recovery codes (a lost device)")
    .action(action(async (ctx, email: string, o: { passwordStdin?: boolean; totp?: boolean }) => {
      const password = await (await ctx.app()).team.users.reset(email, { password: o.passwordStdin ? await stdinPassword() : undefined, totp: o.totp });
      ctx.out.print({ email, ...(o.passwordStdin ? {} : { password }) }, () => `reset ${email}${o.passwordStdin ? "" : `\npassword: ${password}`}`);
    }));

  user.command("rm <email>").description("remove a console user (their sessions end at once)").action(action(async (ctx, email: string) => {
    await (await ctx.app()).team.users.remove(null, email);
    ctx.out.print({ removed: email }, () => `removed ${email}`);
  }));
}

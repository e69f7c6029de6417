// `postern tls status` and `postern tls renew [--force]` (contract §11).
import type { Command } from "commander";
import { action } from "../context.ts";
import { isoTime, table } from "../output.ts";
import { serverFetch } from "../server-request.ts";
import { AppError } from "../../src/core/errors.ts";
import { RENEW_PATH, renewToken } from "../../src/tls/index.ts";

export function registerTls(program: Command) {
  const cmd = program.command("tls").description("HTTPS and STARTTLS certificates ([tls]: ACME or certificate files)");

  cmd.command("status").description("the certificate in use: names, issuer, serial, expiry; and the running server's TLS state")
    .action(action(async (ctx) => {
      const app = await ctx.app();
      const info = app.tls ? await app.tls.kept().catch(() => null) : null;
      const certificates = info ? [{ names: info.names, issuer: info.issuer, serial: info.serial, not_after: isoTime(info.notAfter) }] : [];
      const health = await serverFetch(app.config, "/healthz").then((r) => r?.json() as Promise<{ tls?: Record<string, string> }> | undefined, () => undefined);
      ctx.out.print({ certificates }, () => [
        app.tls ? (app.config.tls.acme ? `ACME from ${app.config.tls.acme_directory}` : `certificate files ${app.config.tls.cert_file}`) : "TLS is not configured ([tls] acme or cert_file)",
        table(certificates.map((c) => ({ ...c, names: c.names.join(",") })), ["names", "issuer", "serial", "not_after"]),
        health?.tls ? `running server: ${health.tls.state}${health.tls.error ? ` (${health.tls.error})` : ""}` : "running server: none answers",
      ].join("\n"));
    }));

  cmd.command("renew").description("renew now if due (--force: even if not) through the running server, or here when none runs; waits for the result")
    .option("--force", "order a new certificate even if the current one is not due")
    .action(action(async (ctx, o: { force?: boolean }) => {
      const app = await ctx.app();
      if (!app.tls) throw new AppError("invalid", "TLS is not configured ([tls] acme or cert_file)");
      const res = await serverFetch(app.config, `${RENEW_PATH}${o.force ? "?force=1" : ""}`,
        { method: "POST", headers: { authorization: `Bearer ${renewToken(app.secret)}` }, timeoutMs: 300_000 });
      const result = res ? await res.json() as { ok: boolean; error?: string; serial?: string; not_after?: string }
        : { ...(await app.tls.renewHere(Boolean(o.force))), here: true };
      ctx.out.print(result, () => result.ok ? `certificate ${result.serial} valid until ${result.not_after}` : `renewal failed: ${result.error}`);
      if (!result.ok) process.exitCode = 1;
    }));
}

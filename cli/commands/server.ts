// `postern init`, `postern serve`, `postern status` and `postern account show`.
import type { Command } from "commander";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { renderConfigTemplate } from "../../src/config/schema.ts";
import { loadConfig } from "../../src/config/load.ts";
import { createApp } from "../../src/app.ts";
import { createLogger } from "../../src/log.ts";
import { AppError } from "../../src/core/errors.ts";
import { action, contextFrom } from "../context.ts";
import { saveFirstKey } from "../first-key.ts";
import { warmUp } from "../warm-up.ts";
import { isoTime, table } from "../output.ts";
import { serverFetch } from "../server-request.ts";

/** Where the data is, for the start-up line (a PostgreSQL URL without its password). */
const dataWhere = (c: ReturnType<typeof loadConfig>) =>
  c.storage.engine === "postgres" ? `postgres ${c.storage.postgres_url.replace(/\/\/([^:@/]*):[^@/]*@/, "//$1:***@")}` : c.storage.data_dir;

export function registerServer(program: Command) {
  program.command("init").description("write a commented postern.toml and the data dir; print the account key once")
    .option("--dir <dir>", "where to write postern.toml (default: the current directory)", ".")
    .action(async (o: { dir: string }, cmd: Command) => {
      const ctx = contextFrom(cmd);
      const file = join(resolve(o.dir), "postern.toml");
      if (existsSync(file)) throw new AppError("conflict", `${file} already exists`);
      mkdirSync(resolve(o.dir), { recursive: true });
      writeFileSync(file, renderConfigTemplate());
      const config = loadConfig({ file, env: process.env });
      mkdirSync(config.storage.templates_dir, { recursive: true });
      const app = await createApp(config, { log: createLogger({ level: "warn" }) });
      try {
        const key = app.newAccountKey;
        ctx.out.print({ config: file, data_dir: config.storage.data_dir, account_key: key },
          () => `wrote ${file}\ndata in ${config.storage.data_dir}\n${key ? `account (primary) key, shown once: ${key}` : "the account already existed"}`);
      } finally { await app.stop(); }
    });

  program.command("serve").description("start every HTTP surface, the MTA, inbound SMTP, webhooks and the bot classifier")
    .action(async (_o: unknown, cmd: Command) => {
      const ctx = contextFrom(cmd);
      const config = ctx.config();
      await warmUp();
      const app = await createApp(config);
      const key = app.newAccountKey;
      if (key) process.stdout.write(saveFirstKey(key, app.config.storage.data_dir, Boolean(process.stdout.isTTY)));
      const where = await app.start();
      process.stdout.write(`postern listening: ${Object.entries(where).map(([k, v]) => `${k} ${v}`).join(", ")}` +
        ` (config: ${ctx.configFile ?? "embedded defaults"}, data: ${dataWhere(app.config)})\n`);
      // A bug in one request or delivery must not take every other one down with it: log and go on.
      process.on("unhandledRejection", (err) => app.log.error("unhandled rejection", { error: String((err as Error)?.stack ?? err) }));
      process.on("uncaughtException", (err) => app.log.error("uncaught exception", { error: String(err?.stack ?? err) }));
      // One stop however many signals come (app.ts owns the sequence and its grace); 0 once every outcome is written.
      let stopping: Promise<void> | null = null;
      const stop = () => {
        stopping ??= app.stop().then(() => process.exit(0), (err) => {
          app.log.error("stop failed", { error: String((err as Error)?.stack ?? err) });
          process.exit(1);
        });
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
      await new Promise(() => {});
    });

  program.command("status").description("the running server's health, queue depth and last errors; the nodes of its zone and their claims")
    .action(action(async (ctx) => {
      const listen = ctx.config().server.listen;
      let health: Record<string, unknown> | null = null;
      try {
        health = await (await serverFetch(ctx.config(), "/healthz"))?.json() as Record<string, unknown> ?? null;
      } catch { /* said below: the other nodes of the zone may still serve */ }
      // Read from the store, not from this node: a node that died still shows, with the claims it holds.
      const app = await ctx.app();
      const nodes = (await app.nodes.list(app.config.server.zone)).map((n) => ({ node_id: n.nodeId, zone: n.zone, state: n.state, self: n.self,
        host: n.host, pid: n.pid, started: isoTime(n.startedAt), last_seen: isoTime(n.lastSeenAt), stopped: isoTime(n.stoppedAt),
        claims: n.claims }));
      const body = { ...(health ?? { status: "unreachable" }), schema_version: await app.store.schemaVersion(), node: app.nodes.node.nodeId, nodes };
      ctx.out.print(body, () => [
        ...Object.entries(health ?? { status: `no postern server answers on ${listen}` })
          .map(([k, v]) => `${k.padEnd(12)} ${typeof v === "object" ? JSON.stringify(v) : v}`),
        `schema       control ${body.schema_version.control}, ${Object.entries(body.schema_version.zones).map(([z, v]) => `${z} ${v}`).join(", ")}`,
        `node         ${app.nodes.node.nodeId}`, "",
        table(nodes.map((n) => ({ ...n, node_id: n.self ? `${n.node_id} (this)` : n.node_id, recipients: n.claims.recipients, webhooks: n.claims.webhooks })),
          ["node_id", "zone", "state", "host", "pid", "started", "last_seen", "recipients", "webhooks"]),
      ].join("\n"));
      if (!health) process.exitCode = 1;
    }));

  const account = program.command("account").description("the installation's account");
  account.command("show").description("account id, zones and the webhook signing key").action(action(async (ctx) => {
    const app = await ctx.app();
    const a = (await app.store.control.getAccount())!;
    const data = { id: a.id, webhook_signing_key: a.webhookSigningKey, event_webhook_public_key: app.events.publicKey, zones: app.config.zones.names, default_zone: app.config.zones.default,
      server_zone: app.config.server.zone, domains: (await app.domains.list()).length };
    ctx.out.print(data, () => Object.entries(data).map(([k, v]) => `${k.padEnd(20)} ${v}`).join("\n"));
  }));
}

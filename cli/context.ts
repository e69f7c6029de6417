// What every command gets: the parsed global flags, the loaded config, and the app built on
// demand (management commands open the same SQLite files as a running server, in WAL mode).
import type { Command } from "commander";
import { saveFirstKey } from "./first-key.ts";
import { findConfigFile, loadConfig, type Config } from "../src/config/load.ts";
import { createApp, type App } from "../src/app.ts";
import { createLogger } from "../src/log.ts";
import { createOutput, type Output } from "./output.ts";
import { withScene } from "../src/core/actor.ts";
import { userInfo } from "node:os";

export interface CliContext {
  out: Output;
  configFile: string | null;
  config(): Config;
  /** The app without listeners, account ensured; closed by the caller via `done()`. */
  app(): Promise<App>;
  done(): Promise<void>;
}

export function contextFrom(cmd: Command): CliContext {
  const opts = cmd.optsWithGlobals() as { config?: string; json?: boolean };
  const configFile = findConfigFile(opts.config, process.env);
  let config: Config | null = null;
  let app: App | null = null;
  const ctx: CliContext = {
    out: createOutput(Boolean(opts.json)),
    configFile,
    config: () => (config ??= loadConfig({ file: configFile, env: process.env })),
    async app() {
      if (!app) {
        app = await createApp(ctx.config(), { log: createLogger({ level: process.env.POSTERN_LOG === "debug" ? "debug" : "warn" }) });
        if (app.newAccountKey) process.stderr.write(`postern: ${saveFirstKey(app.newAccountKey, app.config.storage.data_dir, Boolean(process.stderr.isTTY))}`);
      }
      return app;
    },
    async done() { await app?.stop(); },
  };
  return ctx;
}

/** Wraps a command action: builds the context, runs, closes the store, sets the exit code. */
export function action<A extends unknown[]>(fn: (ctx: CliContext, ...args: A) => Promise<void>) {
  return async (...args: unknown[]) => {
    const cmd = args[args.length - 1] as Command;
    const ctx = contextFrom(cmd);
    try {
      // A command is one audit scene whose actor is the machine's operator (core/actor.ts).
      await withScene(() => fn(ctx, ...(args.slice(0, -1) as A)), { kind: "cli", id: cliOperator() });
    } finally {
      await ctx.done();
    }
  };
}

/** The operator as the audit log names a CLI actor: the login of the process (sudo keeps the caller's). */
function cliOperator(): string {
  try { return process.env.SUDO_USER || userInfo().username || "cli"; } catch { return "cli"; }
}

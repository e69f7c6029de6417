// `postern backup DIR` and `postern restore DIR [--force]` (contract §10): a consistent copy of
// every SQLite file while the server runs, with DIR/manifest.json; restore checks the copy and puts
// it in place of an empty or absent data_dir, never beside a running server.
import type { Command } from "commander";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { restoreData } from "../../src/app.ts";
import { AppError } from "../../src/core/errors.ts";
import { action } from "../context.ts";
import { release } from "../version.ts";

export interface Manifest {
  release: string;
  created_at: string;
  engine: "sqlite";
  schema_version: { control: number; zones: Record<string, number> };
  files: { name: string; bytes: number }[];
  bytes: number;
}

const describe = (m: Manifest, dir: string) => [
  `backup in ${dir}: ${m.files.length} files, ${m.bytes} bytes, schema control ${m.schema_version.control}, ` +
    `zones ${Object.entries(m.schema_version.zones).map(([z, v]) => `${z} ${v}`).join(", ")}`,
  ...m.files.map((f) => `  ${f.name.padEnd(24)} ${f.bytes}`),
].join("\n");

export function registerBackup(program: Command) {
  program.command("backup").argument("<dir>", "a new or empty directory").description("a consistent copy of every SQLite file (the server may run), plus DIR/manifest.json; on PostgreSQL use pg_dump")
    .action(action(async (ctx, dir: string) => {
      const target = resolve(dir);
      // Refused before connecting: the database's own tools make PostgreSQL's backups.
      if (ctx.config().storage.engine === "postgres") throw new AppError("invalid", "postern backup copies SQLite files; on PostgreSQL use pg_dump (see docs/operations.md)");
      const app = await ctx.app();
      const started = new Date();
      const version = await app.store.schemaVersion();
      const files = await app.store.backup(target);
      // Stored templates are files beside the databases: they travel with them.
      if (existsSync(app.config.storage.templates_dir)) cpSync(app.config.storage.templates_dir, join(target, "templates"), { recursive: true });
      const manifest: Manifest = { release: release(), created_at: started.toISOString(), engine: "sqlite", schema_version: version, files,
        bytes: files.reduce((n, f) => n + f.bytes, 0) };
      writeFileSync(join(target, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
      ctx.out.print(manifest, () => describe(manifest, target));
    }));

  program.command("restore").argument("<dir>", "a directory written by postern backup")
    .option("--force", "replace the data already in data_dir")
    .description("with the server stopped: check a backup's integrity and put it in place of an empty or absent data_dir; on PostgreSQL use pg_restore")
    .action(action(async (ctx, dir: string, o: { force?: boolean }) => {
      const from = resolve(dir);
      const config = ctx.config();
      const manifestFile = join(from, "manifest.json");
      if (config.storage.engine === "sqlite" && !existsSync(manifestFile)) throw new AppError("invalid", `${from} has no manifest.json: not a postern backup`);
      const files = await restoreData(config, from, Boolean(o.force));
      const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as Manifest;
      if (existsSync(join(from, "templates"))) cpSync(join(from, "templates"), config.storage.templates_dir, { recursive: true, force: true });
      const out = { data_dir: config.storage.data_dir, restored: files, from: from, backup_created_at: manifest.created_at, schema_version: manifest.schema_version };
      ctx.out.print(out, () => `restored ${files.length} files from ${from} (taken ${manifest.created_at}) into ${config.storage.data_dir}`);
    }));
}

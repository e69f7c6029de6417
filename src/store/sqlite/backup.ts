// Backup and restore of the SQLite engine. A backup is `VACUUM INTO` per file: each copy is one
// read transaction of the live database (WAL mode: the server goes on writing meanwhile), so it
// holds every commit made before it started and opens as a plain, compact, checkpointed file.
// Copying the files themselves while they are written can give a database that does not open
// (the warning mox gives before its own `mox backup`).
import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { AppError } from "../../core/errors.ts";
import type { BackupFile } from "../../core/store-port.ts";
import { takeServeLock } from "./serve-lock.ts";

const isDatabase = (name: string) => name.endsWith(".sqlite");

/** Copies each open database into `dir` (which must be new or empty). */
export function backupFiles(files: { name: string; db: Database }[], dir: string): BackupFile[] {
  mkdirSync(dir, { recursive: true });
  if (readdirSync(dir).length) throw new AppError("conflict", `${dir} is not empty: a backup goes into a new or empty directory`);
  return files.map(({ name, db }) => {
    const file = `${name}.sqlite`;
    db.prepare("VACUUM INTO ?").run(join(dir, file));
    return { name: file, bytes: statSync(join(dir, file)).size };
  });
}

/** "ok", or what SQLite's integrity check says is wrong with `file`. */
export function integrityOf(file: string): string {
  let db: Database | null = null;
  try {
    db = new Database(file, { readonly: true });
    const rows = db.query("PRAGMA integrity_check").all() as { integrity_check: string }[];
    return rows.map((r) => r.integrity_check).join("; ");
  } catch (e) {
    return (e as Error).message;
  } finally {
    db?.close();
  }
}

/**
 * Puts the databases of backup `from` in place of `dataDir`'s: refused while a server holds the data
 * directory (serve.lock, held here too so none starts meanwhile), when a copy fails its integrity
 * check, or when dataDir already holds databases and `force` is not given.
 */
export async function restoreFiles(from: string, dataDir: string, force: boolean): Promise<BackupFile[]> {
  const names = existsSync(from) ? readdirSync(from).filter(isDatabase) : [];
  if (!names.length) throw new AppError("invalid", `${from} holds no backup (no .sqlite files)`);
  for (const name of names) {
    const verdict = integrityOf(join(from, name));
    if (verdict !== "ok") throw new AppError("invalid", `${join(from, name)} fails its integrity check: ${verdict}`);
  }
  mkdirSync(dataDir, { recursive: true });
  const lock = takeServeLock(dataDir);
  try {
    const present = readdirSync(dataDir).filter((n) => /\.sqlite(-wal|-shm)?$|\.outcomes$/.test(n));
    if (present.length && !force) throw new AppError("conflict", `${dataDir} already holds data (${present.join(", ")}): restore --force replaces it`);
    // A WAL, shared-memory or outcome journal file left beside a replaced database would be
    // replayed into the copy.
    for (const n of present) rmSync(join(dataDir, n), { force: true });
    return names.map((name) => {
      copyFileSync(join(from, name), join(dataDir, name));
      return { name, bytes: statSync(join(dataDir, name)).size };
    });
  } finally {
    await lock.release();
  }
}

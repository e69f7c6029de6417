// Opens one SQLite file the way postern needs it: WAL (management commands work while the server
// runs), a busy timeout, foreign keys, and the embedded migrations applied in order.
import { Database } from "bun:sqlite";

/** Page size of files created from now on. */
export const PAGE_SIZE = 512;
/** Bytes the write-ahead log file is trimmed back to when it starts over. */
export const JOURNAL_SIZE_LIMIT = 64 * 1024 * 1024;

/** Opens `path` (or ":memory:") and applies `migrations` beyond the file's user_version. */
export function openDatabase(path: string, migrations: string[]): Database {
  const db = new Database(path, { create: true, strict: true });
  // Small pages for a new file (an existing one keeps its own): most commits change a few rows of
  // many tables and indexes, and every page a commit touches is written whole to the log and again
  // at the checkpoint. bench/soak.ts at 200 msg/s wrote about 105 KB per message with 4096-byte
  // pages, 63 KB with 2048, 42 KB with 1024, and (with compressed bodies) 41 KB with 1024 and 27 KB
  // with 512, SQLite's smallest (docs/performance.md, "Disk: WAL and bytes written").
  db.exec(`PRAGMA page_size = ${PAGE_SIZE}`);
  db.exec("PRAGMA journal_mode = WAL");
  // NORMAL in WAL mode: a commit survives a crash of the process (kill -9); only a power loss
  // can take the last transactions, and it costs no fsync per commit.
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA busy_timeout = 5000");
  // When the log starts over (checkpointer.ts), its file is cut back to this: a burst does not
  // leave a log of gigabytes behind it.
  db.exec(`PRAGMA journal_size_limit = ${JOURNAL_SIZE_LIMIT}`);
  db.exec("PRAGMA foreign_keys = ON");
  migrate(db, migrations);
  return db;
}

export function migrate(db: Database, migrations: string[]): void {
  const row = db.query("PRAGMA user_version").get() as { user_version: number };
  const applied = row.user_version;
  if (applied > migrations.length) throw new Error(`database schema version ${applied} is newer than this postern (${migrations.length})`);
  for (let i = applied; i < migrations.length; i++) {
    db.transaction(() => {
      db.exec(migrations[i]!);
      db.exec(`PRAGMA user_version = ${i + 1}`);
    }).immediate();
  }
}

export const bool = (v: unknown) => v === 1 || v === true;
export const json = <T>(v: unknown, fallback: T): T => {
  if (typeof v !== "string") return fallback;
  try { return JSON.parse(v) as T; } catch { return fallback; }
};

// One running server per data directory: a starting server takes back every claim it finds, so a
// second one beside it would send mail twice. The lock is an exclusive SQLite transaction on
// serve.lock, held while the process lives: the OS drops it when the process dies, however it dies.
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { AppError } from "../../core/errors.ts";
import type { ServeLease } from "../../core/store-port.ts";

/** Takes the data directory for this process (Store.takeLease); throws when another live server holds it. */
export function takeServeLock(dataDir: string): ServeLease {
  const db = new Database(join(dataDir, "serve.lock"), { create: true });
  db.exec("PRAGMA busy_timeout = 0");
  try {
    db.exec("BEGIN EXCLUSIVE");
  } catch {
    db.close();
    throw new AppError("conflict", `another postern server is running on ${dataDir}`);
  }
  return {
    async release() {
      try { db.exec("ROLLBACK"); } catch { /* already released */ }
      db.close();
    },
  };
}

import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "../../src/store/sqlite/index.ts";
import { CONTROL_MIGRATIONS, ZONE_MIGRATIONS } from "../../src/store/sqlite/migrations.ts";
import { migrate, openDatabase } from "../../src/store/sqlite/db.ts";
import { runStoreContract } from "./contract.ts";

runStoreContract("in-memory SQLite", () => openSqliteStore(":memory:", ["us", "eu"]));
// A peer is a second store on the same files: another node, for the concurrent-claimer and lease tests.
let lastDir = "";
runStoreContract("WAL-file SQLite", () => openSqliteStore(lastDir = mkdtempSync(join(tmpdir(), "postern-store-")), ["us", "eu"]),
  () => openSqliteStore(lastDir, ["us", "eu"]));

describe("migrations", () => {
  test("a fresh file gets every migration and WAL mode", () => {
    const file = join(mkdtempSync(join(tmpdir(), "postern-mig-")), "z.sqlite");
    const db = openDatabase(file, ZONE_MIGRATIONS);
    expect((db.query("PRAGMA user_version").get() as { user_version: number }).user_version).toBe(ZONE_MIGRATIONS.length);
    expect((db.query("PRAGMA journal_mode").get() as { journal_mode: string }).journal_mode).toBe("wal");
    // Small pages (db.ts) and a log trimmed back when it starts over.
    expect((db.query("PRAGMA page_size").get() as { page_size: number }).page_size).toBe(512);
    expect((db.query("PRAGMA journal_size_limit").get() as { journal_size_limit: number }).journal_size_limit).toBe(64 * 1024 * 1024);
    db.close();
  });
  test("an existing file at an older version is brought up to date and keeps its rows", () => {
    const file = join(mkdtempSync(join(tmpdir(), "postern-mig-")), "z.sqlite");
    const old = new Database(file);
    migrate(old, ZONE_MIGRATIONS.slice(0, 1));
    old.exec(`INSERT INTO recipients (id, message_id, email, rcpt_domain, kind, status, next_attempt_at, expires_at, updated_at)
      VALUES ('r1', 'm1', 'a@b', 'b', 'to', 'queued', 1, 2, 3)`);
    old.close();
    const db = openDatabase(file, ZONE_MIGRATIONS);
    expect(db.query("SELECT id, claimed FROM recipients").all()).toEqual([{ id: "r1", claimed: 0 }]);
    db.close();
  });
  test("a file from a newer postern is refused", () => {
    const file = join(mkdtempSync(join(tmpdir(), "postern-mig-")), "c.sqlite");
    const db = new Database(file);
    db.exec(`PRAGMA user_version = ${CONTROL_MIGRATIONS.length + 5}`);
    db.close();
    expect(() => openDatabase(file, CONTROL_MIGRATIONS)).toThrow(/newer/);
  });
});

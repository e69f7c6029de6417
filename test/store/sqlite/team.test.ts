// The audit log's table refuses an UPDATE whoever asks (a trigger, besides the port having no such
// method); a console session made before the team migration keeps its key after it.
import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "../../../src/store/sqlite/index.ts";
import { migrate } from "../../../src/store/sqlite/db.ts";
import { CONTROL_MIGRATIONS } from "../../../src/store/sqlite/migrations.ts";
import { TEAM_CONTROL_MIGRATIONS } from "../../../src/store/sqlite/migrations-team.ts";

test("audit_log rows cannot be updated, even with SQL", async () => {
  const dir = mkdtempSync(join(tmpdir(), "postern-audit-sql-"));
  const store = await openSqliteStore(dir, ["us"]);
  await store.control.appendAudit({ at: 1, actorKind: "cli", actorId: "root", tenant: 0, action: "key.create", target: "k", ip: "" });
  await store.close();
  const db = new Database(join(dir, "control.sqlite"));
  expect(() => db.query("UPDATE audit_log SET actor_id = 'someone-else'").run()).toThrow(/append-only/);
  expect((db.query("SELECT actor_id FROM audit_log").get() as { actor_id: string }).actor_id).toBe("root");
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

test("sessions opened with a key before the migration survive it, with their key", () => {
  const db = new Database(":memory:");
  db.exec("PRAGMA foreign_keys = ON");
  const before = CONTROL_MIGRATIONS.length - TEAM_CONTROL_MIGRATIONS.length;
  migrate(db, CONTROL_MIGRATIONS.slice(0, before));
  db.exec(`INSERT INTO api_keys (id, kind, domain_id, label, hash, grants, created_at) VALUES ('k1', 'account', NULL, '', 'h', '[]', 1);
    INSERT INTO console_sessions (token_hash, key_id, csrf, created_at, expires_at) VALUES ('t1', 'k1', 'c', 1, 2);`);
  migrate(db, CONTROL_MIGRATIONS);
  expect(db.query("SELECT token_hash, key_id, user_id FROM console_sessions").all()).toEqual([{ token_hash: "t1", key_id: "k1", user_id: null }]);
  db.exec("DELETE FROM api_keys WHERE id = 'k1'");
  expect(db.query("SELECT count(*) AS n FROM console_sessions").get()).toEqual({ n: 0 });
});

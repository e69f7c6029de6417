// The queue's reads in due order on SQLite (src/store/sqlite/queue.ts) without the index over
// next_attempt_at alone: look-ups key by key in recipients_key_due (SQLite's own plan says so, not a
// timing), with the same answers as before; a file that had the old index loses it.
import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ZONE_MIGRATIONS } from "../../../src/store/sqlite/migrations.ts";
import { migrate, openDatabase } from "../../../src/store/sqlite/db.ts";
import { createQueueStatements, DUE_ORDER_READS } from "../../../src/store/sqlite/queue.ts";

const plan = (db: Database, sql: string, ...params: (string | number)[]) =>
  (db.query(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join("\n");

const insert = (db: Database, id: string, domain: string, at: number, status = "queued") =>
  db.query(`INSERT INTO recipients (id, message_id, email, rcpt_domain, kind, status, attempts, next_attempt_at, expires_at, updated_at)
    VALUES (?, 'm1', ?, ?, 'to', ?, 0, ?, 9e15, 0)`).run(id, `${id}@${domain}`, domain, status, at);

test("the reads in due order are look-ups in recipients_key_due, never a walk of recipients", () => {
  const db = openDatabase(":memory:", ZONE_MIGRATIONS);
  for (const [name, sql] of Object.entries(DUE_ORDER_READS)) {
    const p = plan(db, sql, ...(name === "pageOfKey" ? ["gmail.com", 5, 0, 10] : name === "dueCount" ? [5] : []));
    expect(p).toContain("USING INDEX recipients_key_due (rcpt_domain=?");
    expect(p).not.toMatch(/SCAN recipients|TEMP B-TREE/);
  }
});

test("listing, the first due time and the due count span every key in due order", () => {
  const db = openDatabase(":memory:", ZONE_MIGRATIONS);
  insert(db, "r1", "a.test", 30);
  insert(db, "r2", "b.test", 10);
  insert(db, "r3", "a.test", 20);
  insert(db, "r4", "c.test", 40, "deferred");
  insert(db, "r5", "b.test", 5, "delivered");
  const q = createQueueStatements(db);
  expect(q.list(10).map((r) => r.id)).toEqual(["r2", "r3", "r1", "r4"]);
  expect(q.list(2).map((r) => r.id)).toEqual(["r2", "r3"]);
  expect(q.nextDueAt()).toBe(10);
  expect(q.stats(25)).toMatchObject({ queued: 3, deferred: 1, delivered: 1, due: 2 });
  db.query("UPDATE recipients SET status = 'failed' WHERE status IN ('queued', 'deferred')").run();
  expect(q.list(10)).toEqual([]);
  expect(q.nextDueAt()).toBeNull();
  expect(q.stats(100).due).toBe(0);
});

test("a listing reads each key a page at a time: a key whose rows all come later is read once", () => {
  const db = openDatabase(":memory:", ZONE_MIGRATIONS);
  // 2,000 rows due at one instant on one key, 3 rows earlier on others: ties walk by rowid.
  for (let i = 0; i < 2000; i++) insert(db, `s${String(i).padStart(4, "0")}`, "gmail.com", 500);
  insert(db, "e1", "a.test", 10);
  insert(db, "e2", "b.test", 20);
  insert(db, "e3", "a.test", 600);
  const q = createQueueStatements(db);
  expect(q.list(4).map((r) => r.id)).toEqual(["e1", "e2", "s0000", "s0001"]);
  const all = q.list(5000).map((r) => r.id);
  expect(all.length).toBe(2003);
  expect(all.slice(0, 2)).toEqual(["e1", "e2"]);
  expect(all.at(-1)).toBe("e3");
  expect(new Set(all).size).toBe(2003);
  expect(q.list(1500).filter((id) => id.id.startsWith("s")).length).toBe(1498);
});

test("a file written with the old index loses it and keeps its rows", () => {
  const file = join(mkdtempSync(join(tmpdir(), "postern-queue-")), "z.sqlite");
  const old = new Database(file, { strict: true });
  migrate(old, ZONE_MIGRATIONS.slice(0, ZONE_MIGRATIONS.findIndex((m) => m.includes("DROP INDEX IF EXISTS recipients_due"))));
  expect(old.query("SELECT 1 FROM sqlite_schema WHERE name = 'recipients_due'").get()).not.toBeNull();
  insert(old, "r1", "a.test", 7);
  old.close();
  const db = openDatabase(file, ZONE_MIGRATIONS);
  expect(db.query("SELECT 1 FROM sqlite_schema WHERE name = 'recipients_due'").get()).toBeNull();
  expect(createQueueStatements(db).list(10).map((r) => r.id)).toEqual(["r1"]);
});

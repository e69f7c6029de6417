// The queue by key on SQLite (src/store/sqlite/destinations.ts): the claim and the keys' first due
// times are index look-ups in recipients_key_due, never a walk of the queue, whatever waits for
// a full destination or is parked (SQLite's own plan says so, not a timing); rows queued before the
// migration are found by it.
import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ZONE_MIGRATIONS } from "../../../src/store/sqlite/migrations.ts";
import { migrate, openDatabase } from "../../../src/store/sqlite/db.ts";
import { createDestinationQueue } from "../../../src/store/sqlite/destinations.ts";
import { createGroupCommit } from "../../../src/store/sqlite/group-commit.ts";

const KEYED = ZONE_MIGRATIONS.findIndex((m) => m.includes("recipients_key_due"));
const PENDING = "status IN ('queued', 'deferred')";

function plan(db: Database, sql: string, ...params: (string | number)[]): string {
  return (db.query(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join("\n");
}

test("a claim for one key and a key's first due time are index look-ups, never a scan of recipients", () => {
  const db = openDatabase(join(mkdtempSync(join(tmpdir(), "postern-dest-")), "z.sqlite"), ZONE_MIGRATIONS);
  const claim = plan(db, `SELECT rowid FROM recipients INDEXED BY recipients_key_due WHERE ${PENDING} AND rcpt_domain = ? AND next_attempt_at <= ? ORDER BY rcpt_domain, next_attempt_at LIMIT ?`, "gmail.com", 1, 10);
  expect(claim).toContain("USING INDEX recipients_key_due (rcpt_domain=? AND next_attempt_at<?)");
  expect(claim).not.toMatch(/SCAN recipients|TEMP B-TREE/);
  const first = plan(db, `SELECT next_attempt_at FROM recipients INDEXED BY recipients_key_due WHERE ${PENDING} AND rcpt_domain = ? ORDER BY next_attempt_at LIMIT 1`, "gmail.com");
  expect(first).toContain("USING INDEX recipients_key_due (rcpt_domain=?)");
  expect(first).not.toMatch(/SCAN recipients|TEMP B-TREE/);
});

test("rows queued before the migration are waiting under their key", async () => {
  const file = join(mkdtempSync(join(tmpdir(), "postern-dest-")), "z.sqlite");
  const old = new Database(file, { strict: true });
  migrate(old, ZONE_MIGRATIONS.slice(0, KEYED));
  const ins = old.query(`INSERT INTO recipients (id, message_id, email, rcpt_domain, kind, status, attempts, next_attempt_at, expires_at, updated_at)
    VALUES (?, 'm1', ?, ?, 'to', 'queued', 0, ?, 9e15, 0)`);
  ins.run("r1", "a@gmail.com", "gmail.com", 5);
  ins.run("r2", "b@gmail.com", "gmail.com", 3);
  ins.run("r3", "c@small.test", "small.test", 7);
  old.close();
  const db = openDatabase(file, ZONE_MIGRATIONS);
  const q = createDestinationQueue(db, createGroupCommit(db));
  expect((await q.waitingKeys()).sort((a, b) => a.key.localeCompare(b.key))).toEqual([{ key: "gmail.com", nextDueAt: 3 }, { key: "small.test", nextDueAt: 7 }]);
  expect((await q.claimKeys(10, { owner: "n1", leaseMs: 1000 }, [{ key: "gmail.com", limit: 5 }])).map((r) => r.id).sort()).toEqual(["r1", "r2"]);
});

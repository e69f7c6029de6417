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
import { DUE_ORDER_READS, createQueueStatements } from "../../../src/store/sqlite/queue.ts";

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

test("100,000 scheduled on a live key: the claim, the counts and the next due time read no row that is not due (#41)", async () => {
  const db = openDatabase(join(mkdtempSync(join(tmpdir(), "postern-dest-")), "z.sqlite"), ZONE_MIGRATIONS);
  const ins = db.query(`INSERT INTO recipients (id, message_id, email, rcpt_domain, kind, status, attempts, next_attempt_at, expires_at, updated_at)
    VALUES (?, 'm1', 'x@gmail.test', 'gmail.test', 'to', 'queued', 0, ?, 9e15, 0)`);
  const LATER = 48 * 3_600_000;
  db.transaction(() => {
    for (let i = 0; i < 100_000; i++) ins.run(`s${i}`, LATER + i); // scheduled (send_at), inserted first
    for (let i = 0; i < 20; i++) ins.run(`l${i}`, 100 + i); // live mail on the same key
  })();
  db.exec("ANALYZE");
  const q = createDestinationQueue(db, createGroupCommit(db));
  const stats = createQueueStatements(db);
  // Counted by the triggers' pending_domains, not by reading the rows.
  expect(await q.waitingByKey()).toEqual([{ key: "gmail.test", count: 100_020 }]);
  expect(plan(db, "SELECT domain AS key, n AS count FROM pending_domains WHERE n > 0 ORDER BY n DESC, domain")).not.toContain("recipients");
  expect(stats.stats(1000)).toMatchObject({ queued: 100_020, due: 20 });
  // Every read of recipients on this path is a due-bounded range of the key's index, or one probe.
  expect(plan(db, DUE_ORDER_READS.dueCount, 1000)).toContain("recipients_key_due (rcpt_domain=? AND next_attempt_at<?)");
  expect(plan(db, DUE_ORDER_READS.firstDue)).toContain("recipients_key_due (rcpt_domain=?)");
  expect(await q.waitingKeys()).toEqual([{ key: "gmail.test", nextDueAt: 100 }]);
  // Live mail is not held behind the scheduled: all 20 come at once, none of the 100,000.
  const live = await q.claimKeys(1000, { owner: "n1", leaseMs: 60_000 }, [{ key: "gmail.test", limit: 500 }]);
  expect(live.map((r) => r.id).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `l${i}`).sort());
  expect(await q.claimKeys(2000, { owner: "n1", leaseMs: 60_000 }, [{ key: "gmail.test", limit: 500 }])).toEqual([]);
  // On a fake clock 48 h on, the scheduled are due and go out, the first five of
  // them by due time (with the live rows, whose lease ran out with no outcome written).
  const due = await q.claimKeys(LATER + 4, { owner: "n1", leaseMs: 60_000 }, [{ key: "gmail.test", limit: 500 }]);
  expect(due.map((r) => r.id).sort()).toEqual([...live.map((r) => r.id), "s0", "s1", "s2", "s3", "s4"].sort());
});

// WAL checkpoints on a worker thread while a server runs: the serving connection never checkpoints,
// the worker copies the log into the database file, and on stop everything is as SQLite leaves it.
import { expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../../src/store/sqlite/db.ts";
import { startCheckpointer } from "../../../src/store/sqlite/checkpointer.ts";

const autocheckpoint = (db: ReturnType<typeof openDatabase>) => (db.query("PRAGMA wal_autocheckpoint").get() as { wal_autocheckpoint: number }).wal_autocheckpoint;

test("the worker checkpoints what the serving connection writes; stop hands checkpoints back and the log goes away on close", async () => {
  const dir = mkdtempSync(join(tmpdir(), "postern-ckpt-"));
  const path = join(dir, "z.sqlite");
  const db = openDatabase(path, ["CREATE TABLE t (x BLOB)"]);
  const failures: string[] = [];
  const checkpointer = startCheckpointer([{ db, path }], (why) => failures.push(why));
  try {
    expect(autocheckpoint(db)).toBe(0);
    const before = statSync(path).size;
    const insert = db.query("INSERT INTO t (x) VALUES (?)");
    // 8 MB in small transactions: with checkpoints off on this connection only the worker moves them.
    for (let i = 0; i < 40; i++) db.transaction(() => { for (let j = 0; j < 50; j++) insert.run(new Uint8Array(4096).fill(i)); })();
    const deadline = Date.now() + 5_000;
    while (statSync(path).size < before + 4_000_000 && Date.now() < deadline) await Bun.sleep(20);
    expect(statSync(path).size).toBeGreaterThan(before + 4_000_000);
  } finally {
    await checkpointer.stop();
  }
  expect(failures).toEqual([]);
  expect(autocheckpoint(db)).toBe(1000);
  expect((db.query("SELECT COUNT(*) AS n FROM t").get() as { n: number }).n).toBe(2000);
  db.close();
  // The worker closed its connections: the server's was the last, so SQLite removed the log.
  expect(existsSync(`${path}-wal`)).toBe(false);
  rmSync(dir, { recursive: true, force: true });
});

test("the log starts over once it passes its bound (RESTART_AT) even when a reader is almost always open", async () => {
  const dir = mkdtempSync(join(tmpdir(), "postern-ckpt-"));
  const path = join(dir, "z.sqlite");
  const db = openDatabase(path, ["CREATE TABLE t (x BLOB)"]);
  // A second connection that holds a read snapshot across every write, letting go only between
  // batches: SQLite never finds the log free of readers when a write begins.
  const reader = openDatabase(path, ["CREATE TABLE t (x BLOB)"]);
  // The server's pace and bound scaled down by four (a checkpoint every 250 ms, the log started over
  // past 8 MB instead of every second and 32 MB): the same turns, a quarter of the bytes and time.
  const restartAt = 8 * 1024 * 1024;
  const checkpointer = startCheckpointer([{ db, path }], undefined, { intervalMs: 250, restartAt });
  let largest = 0;
  try {
    const insert = db.query("INSERT INTO t (x) VALUES (?)");
    const row = new Uint8Array(4096).fill(7);
    // 40 MB through the log (five times the bound), 200 KB a transaction.
    for (let i = 0; i < 200; i++) {
      reader.exec("BEGIN");
      reader.query("SELECT COUNT(*) FROM t").get();
      db.transaction(() => { for (let j = 0; j < 50; j++) insert.run(row); })();
      db.exec("DELETE FROM t WHERE rowid % 2 = 0 AND rowid < (SELECT MAX(rowid) - 100 FROM t)");
      reader.exec("COMMIT");
      largest = Math.max(largest, statSync(`${path}-wal`).size);
      // About 1 MB per 60 ms (a server at 200 msg/s writes about 5 MB/s): one checkpoint interval
      // (250 ms) of writes stays well under the bound, so the bound below measures the restart, not the pace.
      if (i % 5 === 0) await Bun.sleep(60);
    }
  } finally {
    await checkpointer.stop();
  }
  // Without the RESTART the log holds every frame: about 40 MB.
  expect(largest).toBeLessThan(2 * restartAt);
  reader.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

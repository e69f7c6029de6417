// WAL checkpoints on a worker thread while a server runs. What an operator sees on disk: the serving
// connection never checkpoints by itself (its commits only append to the log), the log file goes
// back to zero bytes under steady writes (the TRUNCATE the worker asks for) and after a clean stop,
// and the last close removes it. Real SQLite files in a temp dir; no timing is asserted, only
// polled for within generous bounds.
import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../../src/store/sqlite/db.ts";
import { startCheckpointer } from "../../../src/store/sqlite/checkpointer.ts";

type Db = ReturnType<typeof openDatabase>;
const autocheckpoint = (db: Db) => (db.query("PRAGMA wal_autocheckpoint").get() as { wal_autocheckpoint: number }).wal_autocheckpoint;
const size = (file: string) => (existsSync(file) ? statSync(file).size : -1);
const count = (db: Db) => (db.query("SELECT COUNT(*) AS n FROM t").get() as { n: number }).n;

const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });
function fresh() {
  const dir = mkdtempSync(join(tmpdir(), "postern-ckpt-"));
  dirs.push(dir);
  const path = join(dir, "z.sqlite");
  return { path, wal: `${path}-wal`, db: openDatabase(path, ["CREATE TABLE t (x BLOB)"]) };
}
/** `rows` rows of 4 KB in transactions of 50: each commit appends its pages to the log. */
function write(db: Db, rows: number, fill = 1) {
  const insert = db.query("INSERT INTO t (x) VALUES (?)");
  for (let done = 0; done < rows; done += 50) db.transaction(() => { for (let j = 0; j < 50; j++) insert.run(new Uint8Array(4096).fill(fill)); })();
}

test("while the worker runs the serving connection never checkpoints; a clean stop leaves the log at zero bytes, the last close removes it", async () => {
  const { path, wal, db } = fresh();
  // Another connection to the file (a CLI): the server's close is then not the last one, so only
  // the stop itself can bring the log back to zero.
  const cli = openDatabase(path, ["CREATE TABLE t (x BLOB)"]);
  // The worker's first tick an hour away: any page that reaches the database file during the writes
  // below was copied there by a checkpoint of the serving connection itself.
  const checkpointer = startCheckpointer([{ db, path }], undefined, { intervalMs: 3_600_000 });
  const dbBefore = size(path);
  try {
    expect(autocheckpoint(db)).toBe(0);
    // 4 MB, about 9,000 pages of 512 bytes: nine times SQLite's own autocheckpoint threshold.
    write(db, 1_000);
    expect(size(wal)).toBeGreaterThan(4_000_000);
    expect(size(path)).toBe(dbBefore);
  } finally {
    await checkpointer.stop();
  }
  // The stop handed the checkpoints back and truncated the log: its frames are in the database file.
  expect(autocheckpoint(db)).toBe(1000);
  expect(size(wal)).toBe(0);
  expect(size(path)).toBeGreaterThan(dbBefore + 4_000_000);
  expect(count(cli)).toBe(1_000);
  // The server's close leaves the log to the CLI's connection; the last close removes it.
  db.close();
  expect(size(wal)).toBe(0);
  cli.close();
  expect(existsSync(wal)).toBe(false);
}, 30_000);

test("under steady writes the log file goes back to zero bytes after the worker's checkpoint, again and again", async () => {
  const { path, wal, db } = fresh();
  // A reader that holds a snapshot across every write, as a busy server always has one: SQLite
  // then never rewinds the log by itself.
  const reader = openDatabase(path, ["CREATE TABLE t (x BLOB)"]);
  // The bound scaled down (1 MB instead of 32 MB, a tick every 100 ms): the same turns in less time.
  const restartAt = 1024 * 1024;
  const failures: string[] = [];
  const checkpointer = startCheckpointer([{ db, path }], (why) => failures.push(why), { intervalMs: 100, restartAt });
  let truncations = 0;
  let batches = 0;
  try {
    expect(autocheckpoint(db)).toBe(0);
    // Writes keep coming, 200 KB at a time; between two batches the event loop runs the truncate
    // the worker asked for. Only a TRUNCATE checkpoint leaves the log file at zero bytes while the
    // file is open (a RESTART or PASSIVE one leaves it at its size, journal_size_limit at 64 MB).
    const deadline = Date.now() + 30_000;
    while (truncations < 3 && Date.now() < deadline) {
      reader.exec("BEGIN");
      reader.query("SELECT COUNT(*) FROM t").get();
      write(db, 50, batches % 250);
      reader.exec("COMMIT");
      batches++;
      await Bun.sleep(20);
      if (size(wal) === 0) truncations++;
    }
  } finally {
    await checkpointer.stop();
  }
  expect(failures).toEqual([]);
  expect(truncations).toBe(3);
  // Nothing lost on the way: every committed row is in the file.
  expect(count(reader)).toBe(batches * 50);
  reader.close();
  db.close();
  expect(existsSync(wal)).toBe(false);
}, 60_000);

test("the log stays within twice its bound (RESTART_AT) even when a reader is almost always open", async () => {
  const { path, wal, db } = fresh();
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
      largest = Math.max(largest, size(wal));
      // About 1 MB per 60 ms (a server at 200 msg/s writes about 5 MB/s): one checkpoint interval
      // (250 ms) of writes stays well under the bound, so the bound below measures the restart, not the pace.
      if (i % 5 === 0) await Bun.sleep(60);
      // A machine too loaded to run the worker's tick on time (a CI run beside other work reached 19 MB once) must not
      // let the writer outrun it: past the bound, wait for the restart, which is what this test is about.
      if (size(wal) > restartAt) {
        for (let waited = 0; size(wal) > restartAt && waited < 10_000; waited += 20) await Bun.sleep(20);
        expect(size(wal)).toBeLessThanOrEqual(restartAt);
      }
    }
  } finally {
    await checkpointer.stop();
  }
  // Without the worker's checkpoints the log holds every frame: about 40 MB.
  expect(largest).toBeLessThan(2 * restartAt);
  reader.close();
  db.close();
}, 60_000);

import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "bun:sqlite";
import { openDatabase } from "../../../src/store/sqlite/db.ts";
import { createGroupCommit } from "../../../src/store/sqlite/group-commit.ts";

const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

/** A WAL file with a table and three indexes, like the events table an accept appends to. */
function openFile(): Database {
  const dir = mkdtempSync(join(tmpdir(), "postern-gc-"));
  dirs.push(dir);
  return openDatabase(join(dir, "z.sqlite"), [`CREATE TABLE t (id TEXT PRIMARY KEY, k TEXT NOT NULL, v INTEGER NOT NULL);
    CREATE INDEX t_k ON t(k, v); CREATE INDEX t_v ON t(v);`]);
}
const insert = (db: Database, i: number) => () => db.query("INSERT INTO t VALUES (?, ?, ?)").run(`id${i}`, "k", i).changes;
/** Frames in the log since the last checkpoint (which this one starts over). */
const logFrames = (db: Database) => (db.query("PRAGMA wal_checkpoint(PASSIVE)").get() as { log: number }).log;
const settled = async (p: Promise<unknown>) => { let done = false; void p.then(() => { done = true; }, () => { done = true; }); await Bun.sleep(20); return done; };

test("an idle file commits a lone write without waiting for the interval", async () => {
  const db = openFile();
  const commits = createGroupCommit(db, { intervalMs: 3_600_000 });
  expect(await commits.run(insert(db, 1))).toBe(1);
  expect(db.query("SELECT COUNT(*) AS n FROM t").get()).toEqual({ n: 1 });
});

test("writes that follow a commit wait for the interval and then share one transaction", async () => {
  const db = openFile();
  const commits = createGroupCommit(db, { intervalMs: 3_600_000 });
  await commits.run(insert(db, 0));
  logFrames(db);
  const later = [commits.run(insert(db, 1)), commits.run(insert(db, 2)), commits.run(insert(db, 3))];
  // An hour's interval: nothing is committed, nor answered, until flush().
  expect(await settled(later[0]!)).toBe(false);
  expect(db.query("SELECT COUNT(*) AS n FROM t").get()).toEqual({ n: 1 });
  commits.flush();
  expect(await Promise.all(later)).toEqual([1, 1, 1]);
  expect(db.query("SELECT COUNT(*) AS n FROM t").get()).toEqual({ n: 4 });
});

test("eight writes waiting are committed at once, interval or not", async () => {
  const db = openFile();
  const commits = createGroupCommit(db, { intervalMs: 3_600_000 });
  await commits.run(insert(db, 0));
  expect(await Promise.all(Array.from({ length: 8 }, (_, i) => commits.run(insert(db, i + 1))))).toHaveLength(8);
});

test("writes in one transaction write fewer log frames than the same writes apart", async () => {
  const db = openFile();
  const apart = createGroupCommit(db, { intervalMs: 0 });
  logFrames(db);
  for (let i = 0; i < 6; i++) await apart.run(insert(db, i));
  const framesApart = logFrames(db);
  const together = createGroupCommit(db, { intervalMs: 3_600_000 });
  await together.run(insert(db, 100));
  logFrames(db);
  const batch = Array.from({ length: 6 }, (_, i) => together.run(insert(db, 200 + i)));
  together.flush();
  await Promise.all(batch);
  const framesTogether = logFrames(db);
  // Apart: each commit writes the table's and both indexes' last pages and the header again.
  expect(framesTogether).toBeLessThan(framesApart / 2);
});

test("a failing write fails only its own caller", async () => {
  const db = openFile();
  const commits = createGroupCommit(db, { intervalMs: 3_600_000 });
  await commits.run(insert(db, 1));
  const good = commits.run(insert(db, 2));
  const bad = commits.run(insert(db, 1)); // same primary key
  commits.flush();
  expect(await good).toBe(1);
  await expect(bad).rejects.toThrow(/UNIQUE/);
  expect(db.query("SELECT COUNT(*) AS n FROM t").get()).toEqual({ n: 2 });
});

test("accepts sent one at a time, each waiting for its answer, soon stop waiting for the interval", async () => {
  const db = openFile();
  const commits = createGroupCommit(db, { intervalMs: 20 });
  // Each waits for the interval and commits alone: nothing can join a sender that waits for its answer.
  for (let i = 0; i < 13; i++) await commits.run(insert(db, i), { caller: true });
  // Holding has stopped: the next accept is committed in this turn of the event loop, not a timer's.
  let done = false;
  void commits.run(insert(db, 100), { caller: true }).then(() => { done = true; });
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
  expect(done).toBe(true);
});


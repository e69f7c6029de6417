// openSqliteStore: control.sqlite plus one <zone>.sqlite per configured zone, all in WAL mode.
import { createTlsStateStore } from "./tls-state.ts";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "bun:sqlite";
import type { ServeLease, Store, ZoneStore } from "../../core/store-port.ts";
import { AppError } from "../../core/errors.ts";
import { createControlStore } from "./control.ts";
import { createTemplateRepo } from "./templates.ts";
import { createListRepo } from "./lists.ts";
import { openDatabase } from "./db.ts";
import { CONTROL_MIGRATIONS, ZONE_MIGRATIONS } from "./migrations.ts";
import { createZoneStore } from "./zone.ts";
import { createGroupCommit, type GroupCommit } from "./group-commit.ts";
import { openJournal, readJournal, type OutcomeJournal } from "./outcome-journal.ts";
import type { OutcomeEntry } from "./zone.ts";
import { takeServeLock } from "./serve-lock.ts";
import { createNodeRegistry } from "./nodes.ts";
import { startCheckpointer, type Checkpointer } from "./checkpointer.ts";
import { backupFiles } from "./backup.ts";

/** Opens the store in `dataDir`, or entirely in memory when dataDir is ":memory:". */
export function openSqliteStore(dataDir: string, zoneNames: string[]): Store {
  const inMemory = dataDir === ":memory:";
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  const path = (name: string) => (inMemory ? ":memory:" : join(dataDir, `${name}.sqlite`));
  const controlDb = openDatabase(path("control"), CONTROL_MIGRATIONS);
  const dbs: Database[] = [controlDb];
  const files = [{ db: controlDb, path: path("control") }];
  const named = [{ name: "control", db: controlDb }];
  /** While served: WAL checkpoints on a worker thread (checkpointer.ts). */
  let checkpointer: Checkpointer | null = null;
  const zones = new Map<string, ZoneStore>();
  const commits: GroupCommit[] = [];
  /** Per zone: its outcome journal while served (outcome-journal.ts), and how to replay one. */
  const journals = new Map<string, { path: string; open: OutcomeJournal | null; replay: (e: OutcomeEntry[]) => void }>();
  let isLeased = false;
  const takeMemoryLease = (): ServeLease => {
    if (isLeased) throw new AppError("conflict", "this store is already being served");
    isLeased = true;
    return { release: async () => { isLeased = false; } };
  };
  for (const name of zoneNames) {
    const db = openDatabase(path(name), ZONE_MIGRATIONS);
    dbs.push(db);
    files.push({ db, path: path(name) });
    named.push({ name, db });
    commits.push(createGroupCommit(db));
    const journal = { path: join(dataDir, `${name}.outcomes`), open: null as OutcomeJournal | null, replay: (_: OutcomeEntry[]) => {} };
    const zone = createZoneStore(name, db, commits.at(-1)!, () => journal.open);
    journal.replay = zone.replayOutcomes;
    journals.set(name, journal);
    zones.set(name, zone);
  }
  return {
    control: createControlStore(controlDb),
    templates: createTemplateRepo(controlDb),
    lists: createListRepo(controlDb),
    nodes: createNodeRegistry(controlDb),
    tls: createTlsStateStore(controlDb),
    zone(name: string) {
      const z = zones.get(name);
      if (!z) throw new Error(`unknown zone "${name}" (configured: ${zoneNames.join(", ")})`);
      return z;
    },
    zoneNames: () => [...zones.keys()],
    // In memory nothing else can open this store: the lease only has to refuse a second taker here.
    // On files one server per data directory, whatever its node id: SQLite is the one-box engine.
    takeLease: async () => {
      if (inMemory) return takeMemoryLease();
      const lock = takeServeLock(dataDir);
      // What the last server journaled and did not commit (a kill -9): applied before any claim is released.
      for (const j of journals.values()) {
        const entries = readJournal(j.path) as OutcomeEntry[];
        if (entries.length) j.replay(entries);
        j.open = openJournal(j.path);
      }
      checkpointer = startCheckpointer(files, (why) => console.error(`postern: WAL checkpoints back on the serving thread: ${why}`));
      return {
        async release() {
          for (const c of commits) c.flush();
          await new Promise<void>((resolve) => setImmediate(resolve)); // the commits' callbacks
          for (const j of journals.values()) {
            // Kept when an outcome could not be committed: the next server applies it.
            if (!j.open?.close()) rmSync(j.path, { force: true });
            j.open = null;
          }
          await checkpointer?.stop();
          await lock.release();
        },
      };
    },
    schemaVersion: async () => {
      const version = (db: Database) => (db.query("PRAGMA user_version").get() as { user_version: number }).user_version;
      return { control: version(controlDb), zones: Object.fromEntries(named.slice(1).map((f) => [f.name, version(f.db)])) };
    },
    backup: async (dir) => backupFiles(named, dir),
    async close() {
      // Its connections close first: the server's, closing last, checkpoints and removes the log.
      for (const c of commits) c.flush();
      await checkpointer?.stop();
      for (const db of dbs) db.close();
    },
  };
}

// A throw-away PostgreSQL cluster for tests: initdb into a mkdtemp directory, a server on a free
// 127.0.0.1 port with its socket in that directory, trust authentication for the `postgres`
// superuser, and a fresh database per test file or describe. initdb and postgres refuse to run as
// root, so as root the directory is given to the `postgres` user and the binaries run through
// `runuser`; stop() uses `pg_ctl stop -m fast` (runuser would not forward a signal to the server).
// Durability settings are off by default: a test cluster never outlives its process. `durable`
// (or POSTERN_TEST_PG_DURABLE=1 for every cluster) starts it with PostgreSQL's defaults instead
// (fsync, synchronous_commit, full_page_writes on), as a deployment runs it: commits then wait
// for the disk, which is what kill -9 measurements (test/e2e/multi-node.test.ts) must see.
import { SQL } from "bun";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port.ts";

/** The newest /usr/lib/postgresql/<version>/bin holding initdb and pg_ctl, or null. */
export function findPgBin(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const bin = join(root, v, "bin");
    if (existsSync(join(bin, "initdb")) && existsSync(join(bin, "pg_ctl"))) return bin;
  }
  return null;
}

const PG_BIN = findPgBin();
/** Why PostgreSQL tests are skipped here, or null when they run. */
export const pgSkipReason: string | null = PG_BIN
  ? null
  : "PostgreSQL binaries not found under /usr/lib/postgresql/*/bin (install Debian's `postgresql`; .ci/run does): PostgreSQL tests skipped";
if (pgSkipReason) console.warn(pgSkipReason);

export interface PgCluster {
  port: number;
  dir: string;
  /** The URL of database `db` (default `postgres`), over TCP on 127.0.0.1. */
  url(db?: string): string;
  /** Creates an empty database with a fresh name and returns its URL. */
  createDatabase(prefix?: string): Promise<string>;
  stop(): Promise<void>;
}

const isRoot = () => process.getuid?.() === 0;

function run(args: string[], what: string): void {
  const [cmd, ...rest] = isRoot() ? ["runuser", "-u", "postgres", "--", ...args] : args;
  const r = spawnSync(cmd!, rest, { encoding: "utf8", timeout: 120_000 });
  if (r.status !== 0) throw new Error(`${what} failed (${r.status ?? r.signal}): ${r.stderr || r.stdout}`);
}


function initCluster(dir: string): string {
  const data = join(dir, "data");
  if (isRoot()) {
    const c = spawnSync("chown", ["-R", "postgres:", dir], { encoding: "utf8" });
    if (c.status !== 0) throw new Error(`chown ${dir} to postgres failed: ${c.stderr}`);
  }
  run([join(PG_BIN!, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"], "initdb");
  return data;
}

function startServer(dir: string, data: string, port: number, durable: boolean): void {
  const fast = durable ? "" : " -c fsync=off -c synchronous_commit=off -c full_page_writes=off";
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1${fast} -c max_connections=200`;
  run([join(PG_BIN!, "pg_ctl"), "-D", data, "-l", join(dir, "server.log"), "-o", opts, "-w", "-t", "60", "start"], "pg_ctl start");
}

export interface PgOptions {
  /** PostgreSQL's durability defaults (commits wait for the disk); default: off, or on with POSTERN_TEST_PG_DURABLE=1. */
  durable?: boolean;
}

/** The clusters not stopped yet. `bun test` runs no "exit" handler, so the preload's global afterAll stops them
 *  (stopAllClusters), and a stop by signal does here: a cluster never outlives the run that started it. */
const running = new Set<() => void>();

export function stopAllClusters(): void {
  for (const stop of [...running]) { try { stop(); } catch { /* stopping the others matters more */ } }
}

for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
  process.once(signal, () => { stopAllClusters(); process.exit(code); });
}

/** Starts a cluster; throws when the binaries are absent (check pgSkipReason first). */
export async function startPostgres(opts: PgOptions = {}): Promise<PgCluster> {
  const durable = opts.durable ?? process.env.POSTERN_TEST_PG_DURABLE === "1";
  if (!PG_BIN) throw new Error(pgSkipReason!);
  const dir = mkdtempSync(join(tmpdir(), "postern-pg-"));
  const data = initCluster(dir);
  let port = 0;
  for (let tries = 0; ; tries++) {
    port = await freePort();
    try { startServer(dir, data, port, durable); break; } catch (e) { if (tries >= 3) throw e; } // the port was taken meanwhile
  }
  let stopped = false;
  const stopSync = () => {
    if (stopped) return;
    stopped = true;
    running.delete(stopSync);
    try { run([join(PG_BIN, "pg_ctl"), "-D", data, "-m", "fast", "-w", "stop"], "pg_ctl stop"); } finally { rmSync(dir, { recursive: true, force: true }); }
  };
  running.add(stopSync);
  let n = 0;
  const url = (db = "postgres") => `postgres://postgres@127.0.0.1:${port}/${db}`;
  return {
    port, dir, url,
    async createDatabase(prefix = "t") {
      const name = `${prefix.replace(/[^a-z0-9_]/gi, "_").toLowerCase()}_${process.pid}_${++n}`;
      const admin = new SQL(url());
      try { await admin.unsafe(`CREATE DATABASE "${name}"`); } finally { await admin.close(); }
      return url(name);
    },
    async stop() { stopSync(); },
  };
}

let shared: Promise<PgCluster> | null = null;

/**
 * A cluster for a test file, on the one cluster this process shares (started at the first call):
 * `bun test` runs every file in one process, and a cluster of each file's own cost an initdb, a
 * start and a stop (about a second). What a file sees is still its own: the databases its handle
 * creates, which its stop() drops (ending their connections); the cluster itself stops when the
 * process exits. A durable cluster (durable: true), and tests of the cluster itself, take startPostgres().
 */
export async function sharedPostgres(): Promise<PgCluster> {
  const cluster = await (shared ??= startPostgres());
  const mine: string[] = [];
  return {
    port: cluster.port, dir: cluster.dir, url: cluster.url,
    async createDatabase(prefix) {
      const url = await cluster.createDatabase(prefix);
      mine.push(new URL(url).pathname.slice(1));
      return url;
    },
    async stop() {
      if (!mine.length) return;
      const admin = new SQL(cluster.url());
      try {
        for (const db of mine.splice(0)) await admin.unsafe(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
      } finally { await admin.close(); }
    },
  };
}

// The throw-away cluster itself: it starts, hands out separate databases, and stops; the shared one
// serves every file of the process, and a file's stop() takes only its own databases away.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { existsSync } from "node:fs";
import { pgSkipReason, sharedPostgres, startPostgres, type PgCluster } from "./postgres.ts";

describe.skipIf(pgSkipReason !== null)("throw-away PostgreSQL cluster", () => {
  let pg: PgCluster;
  beforeAll(async () => { pg = await startPostgres(); }, 120_000);
  afterAll(async () => { await pg?.stop(); }, 60_000);

  test("two fresh databases answer on 127.0.0.1 and do not share tables", async () => {
    const a = new SQL(await pg.createDatabase("smoke"));
    const b = new SQL(await pg.createDatabase("smoke"));
    await a`CREATE TABLE t (x int)`;
    await a`INSERT INTO t VALUES (41)`;
    expect((await a`SELECT x + 1 AS y FROM t`)[0].y).toBe(42);
    expect((await b`SELECT to_regclass('t') AS r`)[0].r).toBeNull();
    await a.close();
    await b.close();
  });

  test("stop() shuts the server down and removes its directory", async () => {
    const other = await startPostgres();
    await other.stop();
    expect(existsSync(other.dir)).toBe(false);
    const c = new SQL({ url: other.url(), connectionTimeout: 2 });
    await expect(c`SELECT 1`).rejects.toThrow();
    await c.close().catch(() => {});
  }, 120_000);

  test("shared: one cluster for every caller; a handle's stop() drops its own databases, not the others'", async () => {
    const [one, two] = [await sharedPostgres(), await sharedPostgres()];
    expect(one.port).toBe(two.port);
    const [a, b] = [new SQL(await one.createDatabase("mine")), new SQL(await two.createDatabase("theirs"))];
    expect((await a`SELECT 1 AS x`)[0].x).toBe(1);
    await one.stop();
    await expect(a`SELECT 1`).rejects.toThrow(); // its connection ended with the database
    expect((await b`SELECT 2 AS x`)[0].x).toBe(2);
    await a.close().catch(() => {});
    await b.close();
    await two.stop();
  }, 120_000);
});

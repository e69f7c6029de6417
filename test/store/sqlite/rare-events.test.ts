// The failures and complaints of a window, with no domain (the alerts each minute), read through the
// partial index of rare events: SQLite's own plan says so (no timing), and the answers are the
// same as without it.
import { expect, test } from "bun:test";
import { ZONE_MIGRATIONS } from "../../../src/store/sqlite/migrations.ts";
import { openDatabase } from "../../../src/store/sqlite/db.ts";
import { createEventStatements } from "../../../src/store/sqlite/events.ts";
import type { MessageEvent } from "../../../src/core/model.ts";

const ev = (id: string, type: MessageEvent["type"], ts: number, domain = "a.test"): MessageEvent =>
  ({ id, type, messageId: `m-${id}`, recipient: `${id}@x.test`, domain, timestamp: ts, tags: [], metadata: {} });

test("a search of rare types only walks events_rare_ts; one with a common type does not claim it", () => {
  const db = openDatabase(":memory:", ZONE_MIGRATIONS);
  const events = createEventStatements(db);
  events.insertMany([ev("a1", "accepted", 10), ev("f1", "failed", 20), ev("c1", "complained", 30, "b.test"), ev("d1", "delivered", 40), ev("f2", "failed", 50)]);
  const traced: string[] = [];
  const query = db.query.bind(db);
  db.query = ((sql: string) => { traced.push(sql); return query(sql); }) as typeof db.query;
  expect(events.search({ types: ["failed", "complained"], begin: 0, end: 45, ascending: true, limit: 10 }).map((e) => e.id)).toEqual(["f1", "c1"]);
  expect(events.search({ types: ["failed"], begin: 0, end: 100, ascending: true, limit: 10 }).map((e) => e.id)).toEqual(["f1", "f2"]);
  expect(events.search({ types: ["accepted", "failed"], begin: 0, end: 100, ascending: true, limit: 10 }).map((e) => e.id)).toEqual(["a1", "f1", "f2"]);
  db.query = query;
  const plan = (sql: string, n: number) => (db.query(`EXPLAIN QUERY PLAN ${sql}`).all(...Array.from({ length: n }, () => 1)) as { detail: string }[]).map((r) => r.detail).join("\n");
  const params = (sql: string) => (sql.match(/\?/g) ?? []).length;
  expect(plan(traced[0]!, params(traced[0]!))).toContain("USING INDEX events_rare_ts");
  expect(plan(traced[1]!, params(traced[1]!))).toContain("USING INDEX events_rare_ts");
  expect(plan(traced[2]!, params(traced[2]!))).not.toContain("events_rare_ts");
});

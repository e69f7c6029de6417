// Which messages of a fan-out batch carry a callback URL, answered by the partial index of those
// messages alone (SQLite's own plan says so, not a timing): never a read of the messages' rows.
import { expect, test } from "bun:test";
import { ZONE_MIGRATIONS } from "../../../src/store/sqlite/migrations.ts";
import { openDatabase } from "../../../src/store/sqlite/db.ts";
import { CALLBACKS_OF } from "../../../src/store/sqlite/zone.ts";

test("callbacksOf's read is a covering look-up in messages_callback", () => {
  const db = openDatabase(":memory:", ZONE_MIGRATIONS);
  const plan = (db.query(`EXPLAIN QUERY PLAN ${CALLBACKS_OF}`).all("[]") as { detail: string }[]).map((r) => r.detail).join("\n");
  expect(plan).toContain("USING COVERING INDEX messages_callback");
});

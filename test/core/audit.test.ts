// The audit log's reads: dates as ISO 8601 or Unix seconds, and bad filters refused (its writer and
// scenes: test/core/actor.test.ts).
import { expect, test } from "bun:test";
import { openSqliteStore } from "../../src/store/sqlite/index.ts";
import { createAuditLog, parseWhen } from "../../src/core/audit.ts";

test("dates are ISO 8601 or Unix seconds; bad filters are refused as invalid", async () => {
  expect(parseWhen("1800000000", "from")).toBe(1_800_000_000_000);
  expect(parseWhen("2027-01-15T08:00:00Z", "from")).toBe(Date.UTC(2027, 0, 15, 8));
  expect(() => parseWhen("tomorrow", "to")).toThrow(/to must be/);
  const store = await openSqliteStore(":memory:", ["us"]);
  const audit = createAuditLog({ store: store.control, now: Date.now });
  await expect(audit.list({ limit: "5000" })).rejects.toThrow(/limit must be 1 to 1000/);
  await expect(audit.list({ cursor: "abc" })).rejects.toThrow(/cursor/);
  await store.close();
});

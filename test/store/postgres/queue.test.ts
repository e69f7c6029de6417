// Claims on PostgreSQL keep their limit whatever plan the statistics lead to (src/store/postgres/queue.ts). A table
// analysed while near empty (autovacuum on a new install, or between two tests) made the planner run
// `id IN (SELECT ... LIMIT n FOR UPDATE SKIP LOCKED)` once per row of a nested loop: each run skipped the rows
// already taken and picked more, so a claim of 2 took all 4 due rows and a batch delete of 2 deleted 4. The full
// suite hit it once (2026-11-29, test/store/contract-claims.ts); these tests set the statistics up on purpose.
import { afterAll, expect, test } from "bun:test";
import { SQL } from "bun";
import { pgSkipReason, sharedPostgres, type PgCluster } from "../../helpers/postgres.ts";
import { openPostgresStore } from "../../../src/store/postgres/index.ts";
import type { OutboxItem, StoredMessage, StoredRecipient } from "../../../src/core/store-port.ts";
import { newId } from "../../../src/core/ids.ts";

const pg: PgCluster | null = pgSkipReason ? null : await sharedPostgres();
afterAll(async () => { await pg?.stop(); }, 60_000);

const NOW = 1_800_000_000_000;
const msg = (id: string): StoredMessage => ({ id, sendId: `s-${id}`, domain: "a.test", messageIdHeader: `<${id}@x>`, from: "a@a.test", subject: "s",
  content: "{}", raw: null, tags: [], metadata: {}, callbackUrl: null, source: "native", isTest: false, size: 2, createdAt: NOW });
const rcpt = (id: string, messageId: string): StoredRecipient => ({ id, messageId, email: `${id}@b.test`, rcptDomain: "b.test", kind: "to",
  status: "queued", attempts: 0, nextAttemptAt: NOW, firstAttemptAt: null, expiresAt: NOW + 1e9, lastCode: null, lastResponse: null, mx: null, updatedAt: NOW });
const post = (id: string): OutboxItem => ({ id, url: "https://hook.test/", format: "native", targetId: null, domain: "a.test", payload: "[]",
  attempts: 0, nextAttemptAt: NOW, status: "pending", lastError: null, createdAt: NOW });

/** A store whose zone tables were analysed holding one row each, then emptied: PostgreSQL now plans for one row. */
async function storeWithStaleStatistics() {
  const url = await pg!.createDatabase("stale");
  const nodes = [await openPostgresStore({ postgresUrl: url, zones: ["us"], nodeId: "node-a" }),
    await openPostgresStore({ postgresUrl: url, zones: ["us"], nodeId: "node-b" })];
  const z = nodes[0]!.zone("us");
  await z.createSend({ messages: [msg("m0")], recipients: [rcpt("old", "m0")], attachments: [], events: [] });
  await z.enqueueOutbox([post(newId(NOW))]);
  const sql = new SQL(url);
  await sql.unsafe("ANALYZE zone_us.recipients; ANALYZE zone_us.outbox; DELETE FROM zone_us.recipients; DELETE FROM zone_us.outbox");
  return { a: z, b: nodes[1]!.zone("us"), sql, close: async () => { await sql.close(); for (const n of nodes) await n.close(); } };
}

test.skipIf(pg === null)("a claim takes at most its limit when the planner expects one row", async () => {
  const { a, b, sql, close } = await storeWithStaleStatistics();
  await a.createSend({ messages: [msg("m1")], recipients: ["r0", "r1", "r2", "r3"].map((id) => rcpt(id, "m1")), attachments: [], events: [] });
  const mine = await a.claimDue(NOW, 2, { owner: "n1", leaseMs: 60_000 });
  const theirs = await b.claimDue(NOW, 2, { owner: "n2", leaseMs: 60_000 });
  expect([mine.length, theirs.length]).toEqual([2, 2]);
  expect(new Set([...mine, ...theirs].map((r) => r.id)).size).toBe(4);
  expect(await a.releaseClaims(NOW + 1, "n1")).toBe(2);
  // The statement as it was, on the same statistics, takes every due row: the statistics do reproduce the pitfall.
  await sql.unsafe("UPDATE zone_us.recipients SET owner = NULL, next_attempt_at = $1", [NOW]);
  const old = await sql.unsafe(`UPDATE zone_us.recipients SET owner = 'x', next_attempt_at = $1 + 1 WHERE id IN (SELECT id FROM zone_us.recipients
    WHERE status IN ('queued', 'deferred') AND next_attempt_at <= $1 ORDER BY next_attempt_at LIMIT 2 FOR UPDATE SKIP LOCKED) RETURNING id`, [NOW]);
  expect(old.length).toBe(4);
  await close();
}, 60_000);

test.skipIf(pg === null)("a retention batch deletes at most its limit of finished posts when the planner expects one row", async () => {
  const { a, close } = await storeWithStaleStatistics();
  const ids = [0, 1, 2, 3].map((i) => newId(NOW + i)); // retention reads the time from the id
  await a.enqueueOutbox(ids.map(post));
  for (const id of ids) await a.finishWebhook(id, "delivered", 1, NOW, null, NOW);
  expect(await a.sweepOutbox(NOW + 10, 2)).toBe(2);
  expect(await a.sweepOutbox(NOW + 10, 2)).toBe(2);
  expect(await a.sweepOutbox(NOW + 10, 2)).toBe(0);
  await close();
}, 60_000);

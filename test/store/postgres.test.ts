// The store contract on PostgreSQL: the process's shared test cluster, one database for the
// contract (emptied, not re-created, before each test's store: the tests expect an empty store),
// and a peer store (another node, its own node id) on the same database.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { pgSkipReason, sharedPostgres, type PgCluster } from "../helpers/postgres.ts";
import { OUTCOME_CONNECTIONS, openPostgresStore } from "../../src/store/postgres/index.ts";
import { outcomeWrites } from "../../src/store/postgres/zone.ts";
import { ZONE_MIGRATIONS, zoneSchema } from "../../src/store/postgres/migrations.ts";
import { openPool } from "../../src/store/postgres/db.ts";
import { addUnpositionedEvents, insertEvents } from "../../src/store/postgres/events.ts";
import { Writes } from "../../src/store/postgres/writes.ts";
import type { Store } from "../../src/core/store-port.ts";
import { runStoreContract } from "./contract.ts";

const pg: PgCluster | null = pgSkipReason ? null : await sharedPostgres();
afterAll(async () => { await pg?.stop(); }, 60_000);

const opened = new WeakMap<Store, { url: string; nodeId: string }>();
/** Stores a test opened and has not closed: a test that fails before its close() would otherwise leave its
 *  connections open, and the next tests would meet "too many clients" instead of their own result. */
const live = new Set<Store>();
function tracked(store: Store): Store {
  live.add(store);
  const close = store.close.bind(store);
  store.close = async () => { live.delete(store); await close(); };
  return store;
}
afterEach(async () => { for (const s of [...live]) await s.close().catch(() => {}); });
let nodes = 0;
let contractUrl = "";
const SCHEMAS = "'control', 'zone_us', 'zone_eu'";
const KEPT = "'schema_migrations', 'event_counter', 'tenants'";
/**
 * Empties every table the engine made (keeping the migrations applied) and resets counters, as one
 * TRUNCATE ... RESTART IDENTITY CASCADE of all of them would: but with DELETE, foreign keys not
 * enforced for the moment (session_replication_role), which for a test's few rows costs a few
 * milliseconds where truncating ~70 tables cost ~150 ms a test; and each of their sequences set
 * back to its start.
 */
async function emptyDatabase(url: string) {
  const sql = new SQL(url);
  await sql.unsafe(`DO $$
    DECLARE r record;
    BEGIN
      SET LOCAL session_replication_role = replica;
      FOR r IN SELECT quote_ident(schemaname) || '.' || quote_ident(tablename) AS t FROM pg_tables
        WHERE schemaname IN (${SCHEMAS}) AND tablename NOT IN (${KEPT}) LOOP
        EXECUTE 'DELETE FROM ' || r.t;
      END LOOP;
      FOR r IN SELECT DISTINCT s.oid::regclass::text AS seq, ps.start_value FROM pg_class s
        JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = s.oid AND d.deptype IN ('a', 'i')
        JOIN pg_class t ON t.oid = d.refobjid JOIN pg_namespace n ON n.oid = t.relnamespace
        JOIN pg_sequences ps ON ps.schemaname = n.nspname AND ps.sequencename = s.relname
        WHERE s.relkind = 'S' AND n.nspname IN (${SCHEMAS}) AND t.relname NOT IN (${KEPT}) LOOP
        PERFORM setval(r.seq, r.start_value, false);
      END LOOP;
    END $$`);
  // Tenant 0 is the migration's row: only the tenants made since go.
  await sql.unsafe("DELETE FROM control.tenants WHERE id <> 0; UPDATE control.tenants SET name = 'primary', status = 'active', monthly_limit = NULL, pool = NULL").catch(() => {});
  for (const z of ["zone_us", "zone_eu"]) await sql.unsafe(`UPDATE ${z}.event_counter SET value = 0`).catch(() => {});
  await sql.close();
}
async function openFresh(): Promise<Store> {
  if (!contractUrl) contractUrl = await pg!.createDatabase("contract");
  else await emptyDatabase(contractUrl);
  const url = contractUrl;
  const nodeId = `node-${++nodes}`;
  const store = tracked(await openPostgresStore({ postgresUrl: url, zones: ["us", "eu"], nodeId }));
  opened.set(store, { url, nodeId });
  return store;
}
/** Another node on the same database; `sameId` gives it `a`'s node id (a second process of one node). */
async function openPeer(a: Store, sameId: boolean): Promise<Store> {
  const { url, nodeId } = opened.get(a)!;
  const store = tracked(await openPostgresStore({ postgresUrl: url, zones: ["us", "eu"], nodeId: sameId ? nodeId : `node-${++nodes}` }));
  opened.set(store, { url, nodeId: sameId ? nodeId : `node-${nodes}` });
  return store;
}

describe.skipIf(pg === null)("PostgreSQL engine", () => {
  runStoreContract("PostgreSQL", openFresh, (a) => openPeer(a, false), (a) => openPeer(a, true));

  test("nodes with different ids serve side by side; a second live node with one id is refused", async () => {
    const a = await openFresh();
    const b = await openPeer(a, false);
    const id = (s: Store) => opened.get(s)!.nodeId;
    const [la, lb] = [await a.takeLease(id(a)), await b.takeLease(id(b))];
    const twin = await openPeer(a, true);
    await expect(twin.takeLease(id(twin))).rejects.toThrow(`node_id "${id(a)}"`);
    await la.release();
    const taken = await twin.takeLease(id(twin));
    for (const l of [lb, taken]) await l.release();
    for (const s of [a, b, twin]) await s.close();
  });

  test("an event transaction that began first and commits last is read before the ones after it (no cursor passes it)", async () => {
    const a = await openFresh();
    const b = await openPeer(a, false);
    const ev = (id: string) => ({ id, type: "delivered" as const, messageId: "m", recipient: "r@b.test", domain: "a.test", timestamp: 1, tags: [], metadata: {} });
    const raw = openPool(opened.get(a)!.url, zoneSchema("us"));
    let commitSlow!: () => void;
    const slowOpen = new Promise<void>((ready) => {
      void raw.begin(async (tx) => {
        await insertEvents(tx, [ev("slow")]);
        ready();
        await new Promise<void>((r) => { commitSlow = r; });
      });
    });
    await slowOpen;
    // Another node writes while the first transaction is still open: it waits for its position.
    let fastDone = false;
    const fast = b.zone("us").applyOutcomes([], [ev("fast")], [], 1).then(() => { fastDone = true; });
    await Bun.sleep(200);
    expect(fastDone).toBe(false);
    expect(await a.zone("us").eventsAfter(0, 10)).toEqual([]);
    commitSlow();
    await fast;
    const seen = await a.zone("us").eventsAfter(0, 10);
    expect(seen.map((e) => e.event.id)).toEqual(["slow", "fast"]);
    expect(seen[0]!.position).toBeLessThan(seen[1]!.position);
    await raw.close();
    await b.close();
    await a.close();
  });

  test("outcomes go on their own connections; delivery attempts commit without waiting for the disk, reports and tracking events wait", async () => {
    const a = await openFresh();
    const url = opened.get(a)!.url;
    const ev = (id: string) => ({ id, type: "delivered" as const, messageId: "m1", recipient: "r@b.test", domain: "a.test", timestamp: 1, tags: [], metadata: {} });
    // Hold the event counter so the outcome write waits where pg_stat_activity shows whose connection it is on.
    const raw = openPool(url, zoneSchema("us"));
    let commit!: () => void;
    await new Promise<void>((ready) => void raw.begin(async (tx) => {
      await insertEvents(tx, [ev("first")]);
      ready();
      await new Promise<void>((r) => { commit = r; });
    }));
    const write = a.zone("us").applyOutcomes([], [ev("outcome")], [], 1);
    let waiting: { application_name: string }[] = [];
    for (let i = 0; i < 100 && !waiting.length; i++) {
      await Bun.sleep(20);
      waiting = await raw`SELECT application_name FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()` as never;
    }
    expect(waiting.map((w) => w.application_name)).toEqual([OUTCOME_CONNECTIONS]);
    commit();
    await write;
    // How each kind of outcome statement commits: run inside a transaction that starts synchronous.
    const T = 1_800_000_000_000;
    const rcpt = (id: string, status: "queued" | "delivered") => ({ id, messageId: "m1", email: `${id}@b.test`, rcptDomain: "b.test", kind: "to" as const, status,
      attempts: 0, nextAttemptAt: T, firstAttemptAt: null, expiresAt: T + 1e9, lastCode: null, lastResponse: null, mx: null, updatedAt: T });
    await a.zone("us").createSend({ messages: [{ id: "m1", sendId: "s1", domain: "a.test", messageIdHeader: "<m1@x>", from: "a@a.test", subject: "s",
      content: "{}", raw: null, tags: [], metadata: {}, callbackUrl: null, source: "cli", isTest: false, size: 2, createdAt: T }],
      recipients: [rcpt("claimed", "queued"), rcpt("waiting", "queued"), rcpt("done", "delivered")], attachments: [], events: [] });
    await a.zone("us").claimDue(T, 1, { owner: "n", leaseMs: 60_000 }); // "claimed" (the first due)
    const upd = (id: string) => ({ id, status: "delivered" as const, attempts: 1, nextAttemptAt: T, firstAttemptAt: T, lastCode: 250, lastResponse: "ok", mx: "mx" });
    const undo = new Error("rolled back");
    const commitMode = async (updates: ReturnType<typeof upd>[], events: ReturnType<typeof ev>[]) => {
      let mode = "";
      await raw.begin(async (tx) => {
        await tx`SET LOCAL synchronous_commit = on`;
        await outcomeWrites(updates, events, [], T).run(tx);
        mode = (await tx`SHOW synchronous_commit`)[0].synchronous_commit;
        throw undo; // each case sees the rows as they were
      }).catch((e) => { if (e !== undo) throw e; });
      return mode;
    };
    expect(await commitMode([upd("claimed")], [ev("e1")])).toBe("off"); // a delivery attempt: its claim repeats it if lost
    expect(await commitMode([upd("done")], [ev("e2")])).toBe("on"); // a bounce report's update of a delivered row
    expect(await commitMode([upd("claimed"), upd("waiting")], [])).toBe("on"); // not every row is claimed
    expect(await commitMode([], [ev("e3")])).toBe("on"); // tracking events
    await raw.close();
    await a.close();
  });

  test("a send's events are positioned once committed; ones a dying node left unpositioned get theirs at the next read, after those read", async () => {
    const a = await openFresh();
    const raw = openPool(opened.get(a)!.url, zoneSchema("us"));
    const ev = (id: string) => ({ id, type: "accepted" as const, messageId: "m1", recipient: "r@b.test", domain: "a.test", timestamp: 1, tags: [], metadata: {} });
    await a.zone("us").createSend({ messages: [{ id: "m1", sendId: "s1", domain: "a.test", messageIdHeader: "<m1@x>", from: "a@a.test", subject: "s",
      content: "{}", raw: null, tags: [], metadata: {}, callbackUrl: null, source: "cli", isTest: false, size: 2, createdAt: 1 }],
      recipients: [], attachments: [], events: [ev("sent")] });
    expect(Number((await raw`SELECT seq FROM events WHERE id = 'sent'`)[0].seq)).toBeGreaterThan(0);
    const first = await a.zone("us").eventsAfter(0, 10);
    expect(first.map((e) => e.event.id)).toEqual(["sent"]);
    const w = new Writes();
    addUnpositionedEvents(w, [ev("orphan")]);
    await w.run(raw);
    expect((await raw`SELECT seq FROM events WHERE id = 'orphan'`)[0].seq).toBeNull();
    const next = await a.zone("us").eventsAfter(first[0]!.position, 10);
    expect(next.map((e) => e.event.id)).toEqual(["orphan"]);
    await raw.close();
    await a.close();
  });

  test("a killed node's claims go to another node when the lease ends; a restart takes back only its own node's claims", async () => {
    const a = await openFresh();
    const b = await openPeer(a, false);
    const id = (s: Store) => opened.get(s)!.nodeId;
    const T = 1_800_000_000_000;
    const rcpt = (id: string) => ({ id, messageId: "m1", email: `${id}@b.test`, rcptDomain: "b.test", kind: "to" as const, status: "queued" as const,
      attempts: 0, nextAttemptAt: T, firstAttemptAt: null, expiresAt: T + 1e9, lastCode: null, lastResponse: null, mx: null, updatedAt: T });
    await a.zone("us").createSend({ messages: [{ id: "m1", sendId: "s1", domain: "a.test", messageIdHeader: "<m1@x>", from: "a@a.test", subject: "s",
      content: "{}", raw: null, tags: [], metadata: {}, callbackUrl: null, source: "cli", isTest: false, size: 2, createdAt: T }],
      recipients: [rcpt("r1"), rcpt("r2")], attachments: [], events: [] });
    expect((await a.zone("us").claimDue(T, 1, { owner: id(a), leaseMs: 60_000 })).map((r) => r.id)).toEqual(["r1"]); // then node a "dies"
    expect((await b.zone("us").claimDue(T + 1_000, 10, { owner: id(b), leaseMs: 60_000 })).map((r) => r.id)).toEqual(["r2"]);
    expect(await b.zone("us").claimDue(T + 59_000, 10, { owner: id(b), leaseMs: 60_000 })).toEqual([]); // r1's lease still runs
    expect((await b.zone("us").claimDue(T + 60_001, 10, { owner: id(b), leaseMs: 60_000 })).map((r) => r.id)).toEqual(["r1"]);
    // Node a restarts: it takes back its own claims only, and none are left (b took r1 over).
    expect(await a.zone("us").releaseClaims(T + 61_000, id(a))).toBe(0);
    expect(await a.zone("us").retryNow("r1", T + 61_000)).toBe(0); // b is attempting it
    expect(await b.zone("us").releaseClaims(T + 61_000, id(b))).toBe(2);
    await b.close();
    await a.close();
  });

  test("two nodes starting at once migrate once, and a newer schema is refused", async () => {
    const url = await pg!.createDatabase("migrate");
    const [a, b] = await Promise.all([0, 1].map((i) => openPostgresStore({ postgresUrl: url, zones: ["us"], nodeId: `n${i}` })));
    const sql = new SQL(url);
    expect((await sql`SELECT COUNT(*)::int AS n FROM zone_us.schema_migrations`)[0].n).toBe(ZONE_MIGRATIONS.length);
    await sql.unsafe(`INSERT INTO zone_us.schema_migrations VALUES (${ZONE_MIGRATIONS.length + 1}, 0)`);
    await expect(openPostgresStore({ postgresUrl: url, zones: ["us"], nodeId: "n3" })).rejects.toThrow(/newer/);
    await sql.close();
    await a!.close();
    await b!.close();
  });
});

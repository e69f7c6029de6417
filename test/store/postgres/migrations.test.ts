// The zone migrations of the PostgreSQL engine on rows older versions wrote.
import { afterAll, describe, expect, test } from "bun:test";
import { pgSkipReason, sharedPostgres, type PgCluster } from "../../helpers/postgres.ts";
import { CONTROL_MIGRATIONS, CONTROL_SCHEMA, ZONE_MIGRATIONS, zoneSchema } from "../../../src/store/postgres/migrations.ts";
import { migrate, openPool, rows } from "../../../src/store/postgres/db.ts";
import { toEvent } from "../../../src/store/sqlite/events.ts";
import type { EventContext } from "../../../src/webhooks/context.ts";
import { expectMigrated, LEGACY, legacyEvent } from "../legacy-codes.ts";

const pg: PgCluster | null = pgSkipReason ? null : await sharedPostgres();
afterAll(async () => { await pg?.stop(); }, 60_000);

/** The zone migration that took Mailgun's codes out of stored events. */
const NEUTRAL = ZONE_MIGRATIONS.findIndex((m) => m.includes("'suppressed'"));

describe.skipIf(pg === null)("neutral reasons", () => {
  test("stored events and pending webhook items lose 605 / 650 and read as before on the wire", async () => {
    const url = await pg!.createDatabase("neutral");
    const schema = zoneSchema("us");
    const sql = openPool(url, schema, 1);
    await migrate(sql, schema, ZONE_MIGRATIONS.slice(0, NEUTRAL));
    for (const [id, [type, data]] of Object.entries(LEGACY)) {
      await sql.unsafe("INSERT INTO events (id, seq, type, message_id, recipient, domain, ts, data) VALUES ($1, $2, $3, 'm1', 'a@x.test', 'a.test', 1700000000000, $4)",
        [id, Number(id.slice(1)), type, JSON.stringify(data)]);
    }
    const payload = JSON.stringify(Object.keys(LEGACY).map((id) => ({ event: legacyEvent(id), message: null })));
    const outbox = (id: string, body: string, status: string) => sql.unsafe(`INSERT INTO outbox (id, url, format, domain, payload, next_attempt_at, status, created_at, updated_at)
      VALUES ($1, 'https://h.test/', 'f', 'a.test', $2, 0, $3, 0, 0)`, [id, body, status]);
    await outbox("o1", payload, "pending");
    await outbox("o2", payload, "delivered");
    await outbox("o3", JSON.stringify([{ batch: "b", events: [{ code: 605 }] }]), "pending");

    await migrate(sql, schema, ZONE_MIGRATIONS);
    expectMigrated((await rows(sql, "SELECT * FROM events ORDER BY seq")).map(toEvent));
    const items = async (id: string) => JSON.parse((await rows(sql, "SELECT payload FROM outbox WHERE id = $1", [id]))[0]!.payload as string);
    const pending = await items("o1") as EventContext[];
    expect(pending.map((c) => c.event.id)).toEqual(Object.keys(LEGACY));
    expectMigrated(pending.map((c) => c.event));
    expect(await items("o2")).toEqual(JSON.parse(payload));
    expect(await items("o3")).toEqual([{ batch: "b", events: [{ code: 605 }] }]);
    await sql.close();
  });
});

describe.skipIf(pg === null)("neutral kinds", () => {
  test("lists and inbound rules stored under a vendor's name get the neutral kind", async () => {
    const url = await pg!.createDatabase("kinds");
    const sql = openPool(url, CONTROL_SCHEMA, 1);
    await migrate(sql, CONTROL_SCHEMA, CONTROL_MIGRATIONS.slice(0, CONTROL_MIGRATIONS.findIndex((m) => m.includes("'address-list'"))));
    for (const [i, kind] of ["mailgun", "sparkpost"].entries()) {
      await sql.unsafe("INSERT INTO lists (kind, id, scope, created_at, updated_at) VALUES ($1, $2, 0, 0, 0)", [kind, `l${i}`]);
    }
    for (const kind of ["mailgun-route", "sendgrid-parse", "sparkpost-inbound-domain", "sparkpost-relay-webhook"]) {
      await sql.unsafe("INSERT INTO inbound_rules (id, kind, spec, created_at) VALUES ($1, $2, '{}', 0)", [`r-${kind}`, kind]);
    }
    await migrate(sql, CONTROL_SCHEMA, CONTROL_MIGRATIONS);
    expect(await rows(sql, "SELECT id, kind FROM lists ORDER BY id")).toEqual([{ id: "l0", kind: "address-list" }, { id: "l1", kind: "recipient-list" }]);
    expect(await rows(sql, "SELECT id, kind FROM inbound_rules ORDER BY id")).toEqual([
      { id: "r-mailgun-route", kind: "route" }, { id: "r-sendgrid-parse", kind: "parse-setting" },
      { id: "r-sparkpost-inbound-domain", kind: "inbound-domain" }, { id: "r-sparkpost-relay-webhook", kind: "relay-webhook" }]);
    await sql.close();
  });
});

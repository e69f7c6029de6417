// The zone migrations of the SQLite engine on rows older versions wrote.
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CONTROL_MIGRATIONS, ZONE_MIGRATIONS } from "../../../src/store/sqlite/migrations.ts";
import { migrate, openDatabase } from "../../../src/store/sqlite/db.ts";
import { toEvent } from "../../../src/store/sqlite/events.ts";
import type { EventContext } from "../../../src/webhooks/context.ts";
import { expectMigrated, LEGACY, legacyEvent } from "../legacy-codes.ts";

/** The zone migration that took Mailgun's codes out of stored events (the last one when it landed). */
const NEUTRAL = ZONE_MIGRATIONS.findIndex((m) => m.includes("'suppressed'"));

describe("neutral reasons", () => {
  test("stored events and pending webhook items lose 605 / 650 and read as before on the wire", () => {
    const file = join(mkdtempSync(join(tmpdir(), "postern-mig-")), "z.sqlite");
    const old = new Database(file, { strict: true });
    migrate(old, ZONE_MIGRATIONS.slice(0, NEUTRAL));
    for (const [id, [type, data]] of Object.entries(LEGACY)) {
      old.query("INSERT INTO events (id, type, message_id, recipient, domain, ts, data, seq) VALUES (?, ?, 'm1', 'a@x.test', 'a.test', 1700000000000, ?, ?)")
        .run(id, type, JSON.stringify(data), Number(id.slice(1)));
    }
    const payload = JSON.stringify(Object.keys(LEGACY).map((id) => ({ event: legacyEvent(id), message: null })));
    const outbox = old.query(`INSERT INTO outbox (id, url, format, domain, payload, next_attempt_at, status, created_at, updated_at)
      VALUES (?, 'https://h.test/', 'f', 'a.test', ?, 0, ?, 0, 0)`);
    outbox.run("o1", payload, "pending");
    outbox.run("o2", payload, "delivered");
    outbox.run("o3", JSON.stringify([{ batch: "b", events: [{ code: 605 }] }]), "pending");
    old.close();

    const db = openDatabase(file, ZONE_MIGRATIONS);
    expectMigrated((db.query("SELECT * FROM events ORDER BY seq").all() as Record<string, unknown>[]).map(toEvent));
    const items = (id: string) => JSON.parse((db.query("SELECT payload FROM outbox WHERE id = ?").get(id) as { payload: string }).payload);
    const pending = items("o1") as EventContext[];
    expect(pending.map((c) => c.event.id)).toEqual(Object.keys(LEGACY));
    expectMigrated(pending.map((c) => c.event));
    expect(items("o2")).toEqual(JSON.parse(payload)); // delivered already: history, left as it was
    expect(items("o3")).toEqual([{ batch: "b", events: [{ code: 605 }] }]); // not events
    db.close();
  });
});

describe("neutral kinds", () => {
  test("lists and inbound rules stored under a vendor's name get the neutral kind", () => {
    const file = join(mkdtempSync(join(tmpdir(), "postern-mig-")), "c.sqlite");
    const old = new Database(file, { strict: true });
    migrate(old, CONTROL_MIGRATIONS.slice(0, CONTROL_MIGRATIONS.findIndex((m) => m.includes("'address-list'"))));
    for (const [i, kind] of ["mailgun", "sparkpost"].entries()) {
      old.query("INSERT INTO lists (kind, id, scope, created_at, updated_at) VALUES (?, ?, 0, 0, 0)").run(kind, `l${i}`);
    }
    for (const kind of ["mailgun-route", "sendgrid-parse", "sparkpost-inbound-domain", "sparkpost-relay-webhook"]) {
      old.query("INSERT INTO inbound_rules (id, kind, spec, created_at) VALUES (?, ?, '{}', 0)").run(`r-${kind}`, kind);
    }
    old.close();
    const db = openDatabase(file, CONTROL_MIGRATIONS);
    expect(db.query("SELECT id, kind FROM lists ORDER BY id").all()).toEqual([{ id: "l0", kind: "address-list" }, { id: "l1", kind: "recipient-list" }]);
    expect(db.query("SELECT id, kind FROM inbound_rules ORDER BY id").all()).toEqual([
      { id: "r-mailgun-route", kind: "route" }, { id: "r-sendgrid-parse", kind: "parse-setting" },
      { id: "r-sparkpost-inbound-domain", kind: "inbound-domain" }, { id: "r-sparkpost-relay-webhook", kind: "relay-webhook" }]);
    db.close();
  });
});

describe("queue counts", () => {
  test("are filled from the rows a file already has, then kept by its writes", () => {
    const file = join(mkdtempSync(join(tmpdir(), "postern-mig-")), "z.sqlite");
    const old = new Database(file, { strict: true });
    const COUNTS = ZONE_MIGRATIONS.findIndex((m) => m.includes("CREATE TABLE recipient_counts"));
    migrate(old, ZONE_MIGRATIONS.slice(0, COUNTS));
    const add = (id: string, domain: string, status: string) => old.query(`INSERT INTO recipients (id, message_id, email, rcpt_domain, kind, status,
      next_attempt_at, expires_at, updated_at) VALUES (?, 'm1', ?, ?, 'to', ?, 1, 2, 3)`).run(id, `${id}@${domain}`, domain, status);
    [["r1", "a.test", "queued"], ["r2", "a.test", "deferred"], ["r3", "b.test", "queued"], ["r4", "b.test", "delivered"], ["r5", "c.test", "failed"]]
      .forEach(([id, domain, status]) => add(id!, domain!, status!));
    old.close();
    const db = openDatabase(file, ZONE_MIGRATIONS);
    const counts = () => [db.query("SELECT status, n FROM recipient_counts WHERE n > 0 ORDER BY status").all(),
      db.query("SELECT domain, n FROM pending_domains ORDER BY domain").all()];
    expect(counts()).toEqual([[{ status: "deferred", n: 1 }, { status: "delivered", n: 1 }, { status: "failed", n: 1 }, { status: "queued", n: 2 }],
      [{ domain: "a.test", n: 2 }, { domain: "b.test", n: 1 }]]);
    db.exec("UPDATE recipients SET status = 'delivered' WHERE id = 'r3'; DELETE FROM recipients WHERE id = 'r1'; UPDATE recipients SET rcpt_domain = 'c.test' WHERE id = 'r2'");
    expect(counts()).toEqual([[{ status: "deferred", n: 1 }, { status: "delivered", n: 2 }, { status: "failed", n: 1 }], [{ domain: "c.test", n: 1 }]]);
    db.close();
  });
});

// The tenant-scoping migration on a control file an older postern wrote: account-wide templates,
// lists, groups, batches and routes land under tenant 0, and a domain's rows under the domain's tenant.
import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { CONTROL_MIGRATIONS } from "../../../src/store/sqlite/migrations.ts";
import { TENSCOPE_CONTROL_MIGRATIONS } from "../../../src/store/sqlite/migrations-tenscope.ts";
import { migrate } from "../../../src/store/sqlite/db.ts";
import { createTemplateRepo } from "../../../src/store/sqlite/templates.ts";
import { createListRepo } from "../../../src/store/sqlite/lists.ts";
import { createSendControlStore } from "../../../src/store/sqlite/send-controls.ts";
import { createInboundRuleStore } from "../../../src/store/sqlite/inbound-rules.ts";

test("existing rows become tenant 0's, or their domain's tenant's", async () => {
  const db = new Database(":memory:", { strict: true });
  migrate(db, CONTROL_MIGRATIONS.slice(0, CONTROL_MIGRATIONS.indexOf(TENSCOPE_CONTROL_MIGRATIONS[0]!)));
  db.run("INSERT INTO tenants (id, name, created_at) VALUES (1, 'acme', 1)");
  db.run("INSERT INTO domains (id, name, zone, dkim_selector, created_at, updated_at, tenant_id) VALUES (7, 'acme.test', 'us', 's1', 1, 1, 1)");
  db.run(`INSERT INTO templates (id, scope, domain_id, name, created_at, updated_at) VALUES ('t', 0, NULL, 'account', 1, 1), ('t', 7, 7, 'domain', 1, 1)`);
  db.run(`INSERT INTO lists (kind, id, scope, domain_id, created_at, updated_at) VALUES ('recipient-list', 'l', 0, NULL, 1, 1), ('address-list', 'a@acme.test', 7, 7, 1, 1)`);
  db.run("INSERT INTO unsubscribe_groups (domain_id, name, created_at) VALUES (NULL, 'g0', 1), (7, 'g7', 1)");
  db.run("INSERT INTO send_batches (id, domain_id, created_at, updated_at) VALUES ('b0', NULL, 1, 1), ('b7', 7, 1, 1)");
  db.run(`INSERT INTO inbound_rules (id, kind, domain_id, spec, created_at) VALUES ('r', 'route', NULL, '{}', 1), ('in.acme.test', 'inbound-domain', 7, '{}', 1)`);
  migrate(db, CONTROL_MIGRATIONS);
  const templates = createTemplateRepo(db);
  expect([(await templates.getTemplate(null, "t", 0))?.name, (await templates.getTemplate(7, "t"))?.tenantId]).toEqual(["account", 1]);
  const lists = createListRepo(db);
  expect((await lists.listLists("recipient-list", undefined, 0)).map((l) => l.id)).toEqual(["l"]);
  expect((await lists.listLists("address-list", undefined, 1)).map((l) => l.id)).toEqual(["a@acme.test"]);
  const controls = createSendControlStore(db);
  expect((await controls.listGroups()).map((g) => [g.name, g.tenantId])).toEqual([["g0", 0], ["g7", 1]]);
  expect((await controls.listBatches()).map((b) => [b.id, b.tenantId])).toEqual([["b0", 0], ["b7", 1]]);
  const rules = createInboundRuleStore(db);
  expect([(await rules.getRule("route", "r"))?.tenantId, (await rules.getRule("inbound-domain", "in.acme.test"))?.tenantId]).toEqual([0, 1]);
});

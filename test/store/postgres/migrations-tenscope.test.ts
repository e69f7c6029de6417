// The tenant-scoping migration of the PostgreSQL engine on a control schema an older postern wrote:
// account-wide rows land under tenant 0, a domain's rows under the domain's tenant.
import { afterAll, expect, test } from "bun:test";
import { pgSkipReason, sharedPostgres, type PgCluster } from "../../helpers/postgres.ts";
import { CONTROL_MIGRATIONS, CONTROL_SCHEMA } from "../../../src/store/postgres/migrations.ts";
import { TENSCOPE_CONTROL_MIGRATIONS } from "../../../src/store/postgres/migrations-tenscope.ts";
import { migrate, openPool } from "../../../src/store/postgres/db.ts";
import { createTemplateRepo } from "../../../src/store/postgres/templates.ts";
import { createSendControlStore } from "../../../src/store/postgres/send-controls.ts";

const pg: PgCluster | null = pgSkipReason ? null : await sharedPostgres();
afterAll(async () => { await pg?.stop(); }, 60_000);

test.skipIf(pg === null)("existing rows become tenant 0's, or their domain's tenant's", async () => {
  const sql = openPool(await pg!.createDatabase("tenscope"), CONTROL_SCHEMA, 1);
  await migrate(sql, CONTROL_SCHEMA, CONTROL_MIGRATIONS.slice(0, CONTROL_MIGRATIONS.indexOf(TENSCOPE_CONTROL_MIGRATIONS[0]!)));
  await sql.unsafe("INSERT INTO tenants (id, name, created_at) VALUES (1, 'acme', 1)");
  const id = Number((await sql.unsafe(`INSERT INTO domains (name, zone, dkim_selector, created_at, updated_at, tenant_id)
    VALUES ('acme.test', 'us', 's1', 1, 1, 1) RETURNING id`))[0]!.id);
  await sql.unsafe(`INSERT INTO templates (id, scope, domain_id, name, created_at, updated_at) VALUES ('t', 0, NULL, 'account', 1, 1), ('t', $1, $1, 'domain', 1, 1)`, [id]);
  await sql.unsafe("INSERT INTO unsubscribe_groups (domain_id, name, created_at) VALUES (NULL, 'g0', 1), ($1, 'g1', 1)", [id]);
  await sql.unsafe("INSERT INTO inbound_rules (id, kind, domain_id, spec, created_at) VALUES ('r', 'route', NULL, '{}', 1), ('in.acme.test', 'inbound-domain', $1, '{}', 1)", [id]);
  await migrate(sql, CONTROL_SCHEMA, CONTROL_MIGRATIONS);
  const templates = createTemplateRepo(sql);
  expect([(await templates.getTemplate(null, "t", 0))?.name, (await templates.getTemplate(id, "t"))?.tenantId]).toEqual(["account", 1]);
  expect((await createSendControlStore(sql).listGroups()).map((g) => [g.name, g.tenantId])).toEqual([["g0", 0], ["g1", 1]]);
  const rules = await sql.unsafe("SELECT id, tenant_id FROM inbound_rules ORDER BY id");
  expect(rules.map((r: Record<string, unknown>) => [r.id, Number(r.tenant_id)])).toEqual([["in.acme.test", 1], ["r", 0]]);
  await sql.close();
}, 60_000);

// Tenant scoping of templates, lists, unsubscribe groups, scheduled-send batches and inbound
// rules, as the SQLite engine's (sqlite/migrations-tenscope.ts, which says why `scope` keeps the keys).
const TABLES = ["templates", "lists", "unsubscribe_groups", "send_batches", "inbound_rules"];

export const TENSCOPE_CONTROL_MIGRATIONS: string[] = [
  TABLES.map((t) => `ALTER TABLE ${t} ADD COLUMN tenant_id INTEGER NOT NULL DEFAULT 0;
   UPDATE ${t} SET tenant_id = COALESCE((SELECT d.tenant_id FROM domains d WHERE d.id = ${t}.domain_id), 0) WHERE domain_id IS NOT NULL;`)
    .join("\n   ") + `
   CREATE INDEX inbound_rules_tenant ON inbound_rules(kind, tenant_id);`,
];

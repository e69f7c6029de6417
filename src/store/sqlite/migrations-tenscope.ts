// Tenant scoping of the account-level data not reached through a domain (docs/tenants.md):
// templates, lists, unsubscribe groups, scheduled-send batches and inbound rules get the owning
// tenant. Existing rows become tenant 0's through the column default, except rows of a domain,
// which take that domain's tenant. The unique keys of templates and lists stay on `scope`: a
// domain's id for a domain's rows, and minus the tenant id for a tenant's account-wide rows (0 for
// the primary's, as before), so two tenants may each have a template "welcome" without rebuilding
// the tables. Spread at the end of CONTROL_MIGRATIONS.
const TABLES = ["templates", "lists", "unsubscribe_groups", "send_batches", "inbound_rules"];

export const TENSCOPE_CONTROL_MIGRATIONS: string[] = [
  TABLES.map((t) => `ALTER TABLE ${t} ADD COLUMN tenant_id INTEGER NOT NULL DEFAULT 0;
   UPDATE ${t} SET tenant_id = COALESCE((SELECT d.tenant_id FROM domains d WHERE d.id = ${t}.domain_id), 0) WHERE domain_id IS NOT NULL;`)
    .join("\n   ") + `
   CREATE INDEX inbound_rules_tenant ON inbound_rules(kind, tenant_id);`,
];

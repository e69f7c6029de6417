// Tenants (contract §14, docs/tenants.md): the tenants table with the primary account as tenant 0,
// and the owning tenant of domains, API keys and account-wide webhooks. Existing rows become
// tenant 0's through the column default. Spread at the end of CONTROL_MIGRATIONS.
export const TENANTS_CONTROL_MIGRATIONS: string[] = [
  `CREATE TABLE tenants (
     id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, status TEXT NOT NULL DEFAULT 'active', created_at INTEGER NOT NULL);
   INSERT INTO tenants (id, name, status, created_at) VALUES (0, 'primary', 'active', CAST(unixepoch('subsec') * 1000 AS INTEGER));
   ALTER TABLE domains ADD COLUMN tenant_id INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE api_keys ADD COLUMN tenant_id INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE webhooks ADD COLUMN tenant_id INTEGER NOT NULL DEFAULT 0;
   CREATE INDEX domains_tenant ON domains(tenant_id);`,
];

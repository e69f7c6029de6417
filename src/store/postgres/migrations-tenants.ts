// Tenants (contract §14), as the SQLite engine's (sqlite/migrations-tenants.ts).
export const TENANTS_CONTROL_MIGRATIONS: string[] = [
  `CREATE TABLE tenants (
     id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, status TEXT NOT NULL DEFAULT 'active', created_at BIGINT NOT NULL);
   INSERT INTO tenants (id, name, status, created_at) VALUES (0, 'primary', 'active', (EXTRACT(EPOCH FROM now()) * 1000)::BIGINT);
   ALTER TABLE domains ADD COLUMN tenant_id INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE api_keys ADD COLUMN tenant_id INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE webhooks ADD COLUMN tenant_id INTEGER NOT NULL DEFAULT 0;
   CREATE INDEX domains_tenant ON domains(tenant_id);`,
];

// Per-tenant limits and pools, as the SQLite engine's (sqlite/migrations-tensmtp.ts).
export const TENSMTP_CONTROL_MIGRATIONS: string[] = [
  `ALTER TABLE tenants ADD COLUMN monthly_limit BIGINT;
   ALTER TABLE tenants ADD COLUMN pool TEXT;
   CREATE TABLE tenant_sends (tenant_id INTEGER NOT NULL, month BIGINT NOT NULL, n BIGINT NOT NULL, PRIMARY KEY (tenant_id, month));`,
];

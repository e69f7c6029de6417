// Per-tenant limits and pools (contract §14, docs/tenants.md): a tenant's monthly message limit
// and egress pool (NULL: none), and the month counters the limit is checked against (one row per
// tenant and month). Spread at the end of CONTROL_MIGRATIONS.
export const TENSMTP_CONTROL_MIGRATIONS: string[] = [
  `ALTER TABLE tenants ADD COLUMN monthly_limit INTEGER;
   ALTER TABLE tenants ADD COLUMN pool TEXT;
   CREATE TABLE tenant_sends (tenant_id INTEGER NOT NULL, month INTEGER NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (tenant_id, month));`,
];

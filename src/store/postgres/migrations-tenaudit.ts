// Tenants join the cached control reads (core/domain-read.ts: every send reads its domain's tenant):
// a tenant's change (a suspension on another node, or by the CLI) bumps the change mark as a
// domain's does. SQLite's change mark (PRAGMA data_version) moves on every commit, so that engine
// needs no migration.
export const TENAUDIT_CONTROL_MIGRATIONS: string[] = [
  `CREATE TRIGGER tenants_changed AFTER INSERT OR UPDATE OR DELETE ON tenants
     FOR EACH STATEMENT EXECUTE FUNCTION bump_control_changes();`,
];

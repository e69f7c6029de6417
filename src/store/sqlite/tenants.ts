// Tenants inside control.sqlite (core/tenants.ts). Tenant 0 is the migration's; new ids count up from 1.
import type { Database } from "bun:sqlite";
import type { Tenant, TenantStore } from "../../core/tenants.ts";

type Row = Record<string, unknown>;

export const toTenant = (r: Row): Tenant => ({
  id: Number(r.id), name: r.name as string, status: r.status as Tenant["status"], createdAt: Number(r.created_at),
});

export function createTenantStore(db: Database): TenantStore {
  return {
    async insertTenant(t) {
      return toTenant(db.query(`INSERT INTO tenants (id, name, status, created_at)
        VALUES ((SELECT COALESCE(MAX(id), 0) + 1 FROM tenants), ?, ?, ?) RETURNING *`).get(t.name, t.status, t.createdAt) as Row);
    },
    async getTenant(q) {
      const r = "id" in q ? db.query("SELECT * FROM tenants WHERE id = ?").get(q.id) : db.query("SELECT * FROM tenants WHERE name = ?").get(q.name);
      return r ? toTenant(r as Row) : null;
    },
    async listTenants() {
      return (db.query("SELECT * FROM tenants ORDER BY id").all() as Row[]).map(toTenant);
    },
    async updateTenant(id, patch) {
      const r = db.query("UPDATE tenants SET name = COALESCE(?, name), status = COALESCE(?, status) WHERE id = ? RETURNING *")
        .get(patch.name ?? null, patch.status ?? null, id) as Row | null;
      return r ? toTenant(r) : null;
    },
  };
}

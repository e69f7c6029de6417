// Tenants inside control.sqlite (core/tenants.ts). Tenant 0 is the migration's; new ids count up from 1.
// The month counters of per-tenant limits (core/tenant-quota.ts) are here too.
import type { Database } from "bun:sqlite";
import type { Tenant, TenantPatch, TenantStore } from "../../core/tenants.ts";
import type { TenantSendCounter } from "../../core/tenant-quota-port.ts";

type Row = Record<string, unknown>;

export const toTenant = (r: Row): Tenant => ({
  id: Number(r.id), name: r.name as string, status: r.status as Tenant["status"], createdAt: Number(r.created_at),
  ...(r.monthly_limit === null || r.monthly_limit === undefined ? {} : { monthlyLimit: Number(r.monthly_limit) }),
  ...(r.pool ? { pool: r.pool as string } : {}),
});

/** The SET list of a patch (only the fields it names; null clears) and its values, numbered from `first` (`?n` or `$n`). */
export function tenantSet(patch: TenantPatch, first: number, mark: "?" | "$"): { set: string; values: (string | number | null)[] } {
  const cols: [string, string | number | null | undefined][] = [["name", patch.name], ["status", patch.status],
    ["monthly_limit", patch.monthlyLimit], ["pool", patch.pool]];
  const named = cols.filter(([, v]) => v !== undefined) as [string, string | number | null][];
  return { set: named.map(([c], i) => `${c} = ${mark}${first + i}`).join(", "), values: named.map(([, v]) => v) };
}

export function createTenantStore(db: Database): TenantStore & TenantSendCounter {
  // A give-back never takes a count below zero.
  const take = db.query(`INSERT INTO tenant_sends (tenant_id, month, n) VALUES (?1, ?2, MAX(0, ?3))
    ON CONFLICT (tenant_id, month) DO UPDATE SET n = MAX(0, n + ?3) WHERE ?4 IS NULL OR n + ?3 <= ?4`);
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
      const { set, values } = tenantSet(patch, 2, "?");
      const r = set ? db.query(`UPDATE tenants SET ${set} WHERE id = ?1 RETURNING *`).get(id, ...values) as Row | null
        : db.query("SELECT * FROM tenants WHERE id = ?").get(id) as Row | null;
      return r ? toTenant(r) : null;
    },
    async takeTenantSends(tenant, month, n, max) {
      if (max !== null && n > max) return false;
      return take.run(tenant, month, n, max).changes > 0;
    },
    async tenantSends(tenant, month) {
      const r = db.query("SELECT n FROM tenant_sends WHERE tenant_id = ? AND month = ?").get(tenant, month) as Row | null;
      return r ? Number(r.n) : 0;
    },
    async setTenantSends(tenant, month, count) {
      db.query("INSERT INTO tenant_sends (tenant_id, month, n) VALUES (?1, ?2, ?3) ON CONFLICT (tenant_id, month) DO UPDATE SET n = ?3").run(tenant, month, count);
    },
  };
}

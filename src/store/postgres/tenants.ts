// Tenants in the control schema (as sqlite/tenants.ts). The id is taken under the insert's own
// lock on the table so two nodes adding at once do not pick the same one. The month counters of
// per-tenant limits: one statement takes a count, so nodes sending at once serialise on the row.
import type { TenantStore } from "../../core/tenants.ts";
import type { TenantSendCounter } from "../../core/tenant-quota-port.ts";
import { tenantSet, toTenant } from "../sqlite/tenants.ts";
import { exec, one, rows, type Sql } from "./db.ts";

export function createTenantStore(sql: Sql): TenantStore & TenantSendCounter {
  return {
    async insertTenant(t) {
      return sql.begin(async (tx) => {
        await exec(tx, "LOCK TABLE tenants IN SHARE ROW EXCLUSIVE MODE");
        const [r] = await rows(tx, `INSERT INTO tenants (id, name, status, created_at)
          VALUES ((SELECT COALESCE(MAX(id), 0) + 1 FROM tenants), $1, $2, $3) RETURNING *`, [t.name, t.status, t.createdAt]);
        return toTenant(r!);
      });
    },
    async getTenant(q) {
      const r = "id" in q ? await one(sql, "SELECT * FROM tenants WHERE id = $1", [q.id]) : await one(sql, "SELECT * FROM tenants WHERE name = $1", [q.name]);
      return r ? toTenant(r) : null;
    },
    async listTenants() {
      return (await rows(sql, "SELECT * FROM tenants ORDER BY id")).map(toTenant);
    },
    async updateTenant(id, patch) {
      const { set, values } = tenantSet(patch, 2, "$");
      const r = set ? await one(sql, `UPDATE tenants SET ${set} WHERE id = $1 RETURNING *`, [id, ...values])
        : await one(sql, "SELECT * FROM tenants WHERE id = $1", [id]);
      return r ? toTenant(r) : null;
    },
    async takeTenantSends(tenant, month, n, max) {
      if (max !== null && n > max) return false;
      return (await exec(sql, `INSERT INTO tenant_sends (tenant_id, month, n) VALUES ($1, $2, GREATEST(0, $3::bigint))
        ON CONFLICT (tenant_id, month) DO UPDATE SET n = GREATEST(0, tenant_sends.n + $3::bigint)
        WHERE $4::bigint IS NULL OR tenant_sends.n + $3::bigint <= $4::bigint`, [tenant, month, n, max])) > 0;
    },
    async tenantSends(tenant, month) {
      const r = await one(sql, "SELECT n FROM tenant_sends WHERE tenant_id = $1 AND month = $2", [tenant, month]);
      return r ? Number(r.n) : 0;
    },
    async setTenantSends(tenant, month, count) {
      await exec(sql, `INSERT INTO tenant_sends (tenant_id, month, n) VALUES ($1, $2, $3)
        ON CONFLICT (tenant_id, month) DO UPDATE SET n = $3`, [tenant, month, count]);
    },
  };
}

// Tenants in the control schema (as sqlite/tenants.ts). The id is taken under the insert's own
// lock on the table so two nodes adding at once do not pick the same one.
import type { TenantStore } from "../../core/tenants.ts";
import { toTenant } from "../sqlite/tenants.ts";
import { exec, one, rows, type Sql } from "./db.ts";

export function createTenantStore(sql: Sql): TenantStore {
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
      const r = await one(sql, "UPDATE tenants SET name = COALESCE($1, name), status = COALESCE($2, status) WHERE id = $3 RETURNING *",
        [patch.name ?? null, patch.status ?? null, id]);
      return r ? toTenant(r) : null;
    },
  };
}

// The control schema's unsubscribe groups and scheduled-send batches (their holds).
import type { SendControlStore } from "../../core/store-port.ts";
import { toBatch, toGroup } from "../sqlite/send-controls.ts";
import { exec, one, rows, type Sql } from "./db.ts";

export function createSendControlStore(sql: Sql): SendControlStore {
  return {
    async insertGroup(g) {
      return toGroup((await one(sql, `INSERT INTO unsubscribe_groups (domain_id, tenant_id, name, description, is_default, created_at)
        VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`, [g.domainId, g.tenantId, g.name, g.description, g.isDefault, g.createdAt]))!);
    },
    async getGroup(id) {
      const r = await one(sql, "SELECT * FROM unsubscribe_groups WHERE id = $1", [id]);
      return r ? toGroup(r) : null;
    },
    async listGroups(tenant) {
      return (tenant === undefined ? await rows(sql, "SELECT * FROM unsubscribe_groups ORDER BY id")
        : await rows(sql, "SELECT * FROM unsubscribe_groups WHERE tenant_id = $1 ORDER BY id", [tenant])).map(toGroup);
    },
    async updateGroup(id, patch) {
      const r = await one(sql, `UPDATE unsubscribe_groups SET name = COALESCE($2, name), description = COALESCE($3, description),
        is_default = COALESCE($4, is_default) WHERE id = $1 RETURNING *`, [id, patch.name ?? null, patch.description ?? null, patch.isDefault ?? null]);
      return r ? toGroup(r) : null;
    },
    async deleteGroup(id) { return (await exec(sql, "DELETE FROM unsubscribe_groups WHERE id = $1", [id])) > 0; },
    async insertBatch(b) {
      await exec(sql, "INSERT INTO send_batches (id, domain_id, tenant_id, hold, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)",
        [b.id, b.domainId, b.tenantId, b.hold, b.createdAt, b.updatedAt]);
    },
    async getBatch(id) {
      const r = await one(sql, "SELECT * FROM send_batches WHERE id = $1", [id]);
      return r ? toBatch(r) : null;
    },
    async listBatches(tenant) {
      return (tenant === undefined ? await rows(sql, "SELECT * FROM send_batches ORDER BY created_at, id")
        : await rows(sql, "SELECT * FROM send_batches WHERE tenant_id = $1 ORDER BY created_at, id", [tenant])).map(toBatch);
    },
    async setBatchHold(id, hold, now) {
      return (await exec(sql, "UPDATE send_batches SET hold = $1, updated_at = $2 WHERE id = $3", [hold, now, id])) > 0;
    },
  };
}

// control.sqlite: unsubscribe groups and scheduled-send batches (their holds).
import type { Database } from "bun:sqlite";
import type { SendBatch, SendControlStore, UnsubscribeGroup } from "../../core/store-port.ts";
import { bool } from "./db.ts";

type Row = Record<string, unknown>;

export const toGroup = (r: Row): UnsubscribeGroup => ({
  id: r.id as number, domainId: (r.domain_id as number | null) ?? null, tenantId: Number(r.tenant_id ?? 0), name: r.name as string, description: r.description as string,
  isDefault: bool(r.is_default), createdAt: r.created_at as number,
});

export const toBatch = (r: Row): SendBatch => ({
  id: r.id as string, domainId: (r.domain_id as number | null) ?? null, tenantId: Number(r.tenant_id ?? 0), hold: (r.hold as SendBatch["hold"]) ?? null,
  createdAt: r.created_at as number, updatedAt: r.updated_at as number,
});

export function createSendControlStore(db: Database): SendControlStore {
  const group = db.query("SELECT * FROM unsubscribe_groups WHERE id = ?");
  return {
    async insertGroup(g) {
      const r = db.query(`INSERT INTO unsubscribe_groups (domain_id, tenant_id, name, description, is_default, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING *`)
        .get(g.domainId, g.tenantId, g.name, g.description, g.isDefault ? 1 : 0, g.createdAt) as Row;
      return toGroup(r);
    },
    async getGroup(id) { const r = group.get(id) as Row | null; return r ? toGroup(r) : null; },
    async listGroups(tenant) {
      const rows = tenant === undefined ? db.query("SELECT * FROM unsubscribe_groups ORDER BY id").all()
        : db.query("SELECT * FROM unsubscribe_groups WHERE tenant_id = ? ORDER BY id").all(tenant);
      return (rows as Row[]).map(toGroup);
    },
    async updateGroup(id, patch) {
      const sets: string[] = [];
      const args: (string | number)[] = [];
      if (patch.name !== undefined) { sets.push("name = ?"); args.push(patch.name); }
      if (patch.description !== undefined) { sets.push("description = ?"); args.push(patch.description); }
      if (patch.isDefault !== undefined) { sets.push("is_default = ?"); args.push(patch.isDefault ? 1 : 0); }
      if (sets.length) db.query(`UPDATE unsubscribe_groups SET ${sets.join(", ")} WHERE id = ?`).run(...args, id);
      const r = group.get(id) as Row | null;
      return r ? toGroup(r) : null;
    },
    async deleteGroup(id) { return db.query("DELETE FROM unsubscribe_groups WHERE id = ?").run(id).changes > 0; },
    async insertBatch(b) {
      db.query("INSERT INTO send_batches (id, domain_id, tenant_id, hold, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)")
        .run(b.id, b.domainId, b.tenantId, b.hold, b.createdAt, b.updatedAt);
    },
    async getBatch(id) { const r = db.query("SELECT * FROM send_batches WHERE id = ?").get(id) as Row | null; return r ? toBatch(r) : null; },
    async listBatches(tenant) {
      const rows = tenant === undefined ? db.query("SELECT * FROM send_batches ORDER BY created_at, id").all()
        : db.query("SELECT * FROM send_batches WHERE tenant_id = ? ORDER BY created_at, id").all(tenant);
      return (rows as Row[]).map(toBatch);
    },
    async setBatchHold(id, hold, now) {
      return db.query("UPDATE send_batches SET hold = ?, updated_at = ? WHERE id = ?").run(hold, now, id).changes > 0;
    },
  };
}

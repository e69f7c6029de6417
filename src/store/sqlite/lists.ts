// Stored lists and their members in control.sqlite (see core/list-model.ts).
import type { Database } from "bun:sqlite";
import type { ListMember, ListRepo, StoredList } from "../../core/list-model.ts";
import { bool, json } from "./db.ts";

type Row = Record<string, unknown>;
// The unique key's scope: the domain, or minus the tenant for account-wide rows (migrations-tenscope.ts).
const scopeOf = (domainId: number | null, tenant = 0) => domainId ?? -tenant;
/** A row in `domainIds` (undefined: any; null: account-wide) and of `tenant` (undefined: any). */
export const inScope = (r: Record<string, unknown>, domainIds: (number | null)[] | undefined, tenant: number | undefined) =>
  (!domainIds || domainIds.includes((r.domain_id as number | null) ?? null)) && (tenant === undefined || Number(r.tenant_id ?? 0) === tenant);

export const toMember = (r: Row): ListMember => ({
  address: r.address as string, name: r.name as string, vars: json(r.vars, {}), subscribed: bool(r.subscribed), extra: json(r.extra, {}),
});

export function createListRepo(db: Database): ListRepo {
  const count = db.query("SELECT COUNT(*) AS n FROM list_members WHERE list_pk = ?");
  const toList = (r: Row): StoredList => ({
    pk: r.pk as number, kind: r.kind as StoredList["kind"], id: r.id as string, domainId: (r.domain_id as number | null) ?? null,
    tenantId: Number(r.tenant_id ?? 0), name: r.name as string, description: r.description as string, extra: json(r.extra, {}),
    createdAt: r.created_at as number, updatedAt: r.updated_at as number, memberCount: (count.get(r.pk as number) as { n: number }).n,
  });
  const nextSeq = db.query("SELECT COALESCE(MAX(seq), 0) + 1 AS s FROM list_members WHERE list_pk = ?");
  const write = (pk: number, members: ListMember[], upsert: boolean) => {
    let seq = (nextSeq.get(pk) as { s: number }).s;
    const ins = db.query(`INSERT INTO list_members (list_pk, address, name, vars, subscribed, extra, seq) VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (list_pk, address) DO ${upsert ? "UPDATE SET name = excluded.name, vars = excluded.vars, subscribed = excluded.subscribed, extra = excluded.extra" : "NOTHING"}`);
    let n = 0;
    for (const m of members) n += ins.run(pk, m.address, m.name, JSON.stringify(m.vars), m.subscribed ? 1 : 0, JSON.stringify(m.extra), seq++).changes;
    return n;
  };
  return {
    async insertList(l) {
      const r = db.query(`INSERT INTO lists (kind, id, scope, domain_id, tenant_id, name, description, extra, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (kind, scope, id) DO NOTHING RETURNING *`)
        .get(l.kind, l.id, scopeOf(l.domainId, l.tenantId), l.domainId, l.tenantId, l.name, l.description, JSON.stringify(l.extra), l.createdAt, l.updatedAt) as Row | null;
      return r ? toList(r) : null;
    },
    async getList(kind, domainId, id, tenant) {
      const r = db.query("SELECT * FROM lists WHERE kind = ? AND scope = ? AND id = ?").get(kind, scopeOf(domainId, tenant), id) as Row | null;
      return r ? toList(r) : null;
    },
    async listLists(kind, domainIds, tenant) {
      const rows = db.query("SELECT * FROM lists WHERE kind = ? ORDER BY created_at, pk").all(kind) as Row[];
      return rows.filter((r) => inScope(r, domainIds, tenant)).map(toList);
    },
    async updateList(pk, patch, now) {
      try {
        return db.query(`UPDATE lists SET id = COALESCE(?, id), name = COALESCE(?, name), description = COALESCE(?, description),
          extra = COALESCE(?, extra), updated_at = ? WHERE pk = ?`)
          .run(patch.id ?? null, patch.name ?? null, patch.description ?? null, patch.extra ? JSON.stringify(patch.extra) : null, now, pk).changes > 0;
      } catch {
        return false; // the new id is taken
      }
    },
    async deleteList(pk) {
      return db.query("DELETE FROM lists WHERE pk = ?").run(pk).changes > 0;
    },
    async putMembers(pk, members, upsert) {
      return db.transaction(() => write(pk, members, upsert)).immediate();
    },
    async replaceMembers(pk, members) {
      db.transaction(() => {
        db.query("DELETE FROM list_members WHERE list_pk = ?").run(pk);
        write(pk, members, true);
      }).immediate();
    },
    async getMember(pk, address) {
      const r = db.query("SELECT * FROM list_members WHERE list_pk = ? AND address = ?").get(pk, address) as Row | null;
      return r ? toMember(r) : null;
    },
    async listMembers(pk, opts) {
      const after = opts.after === undefined ? 0
        : ((db.query("SELECT seq FROM list_members WHERE list_pk = ? AND address = ?").get(pk, opts.after) as { seq: number } | null)?.seq ?? 0);
      const sub = opts.subscribed === undefined ? "" : ` AND subscribed = ${opts.subscribed ? 1 : 0}`;
      return (db.query(`SELECT * FROM list_members WHERE list_pk = ? AND seq > ?${sub} ORDER BY seq LIMIT ?`).all(pk, after, opts.limit) as Row[]).map(toMember);
    },
    async deleteMember(pk, address) {
      return db.query("DELETE FROM list_members WHERE list_pk = ? AND address = ?").run(pk, address).changes > 0;
    },
  };
}

// Stored lists and their members in the control schema (see core/list-model.ts).
import type { ListMember, ListRepo, StoredList } from "../../core/list-model.ts";
import { json } from "../sqlite/db.ts";
import { inScope, toMember } from "../sqlite/lists.ts";
import { exec, isUniqueViolation, one, rows, type Sql } from "./db.ts";

type Row = Record<string, unknown>;
// The unique key's scope: the domain, or minus the tenant for account-wide rows (sqlite/migrations-tenscope.ts).
const scopeOf = (domainId: number | null, tenant = 0) => domainId ?? -tenant;

const toList = (r: Row): StoredList => ({
  pk: r.pk as number, kind: r.kind as StoredList["kind"], id: r.id as string, domainId: (r.domain_id as number | null) ?? null,
  tenantId: Number(r.tenant_id ?? 0), name: r.name as string, description: r.description as string, extra: json(r.extra, {}),
  createdAt: r.created_at as number, updatedAt: r.updated_at as number, memberCount: Number(r.member_count ?? 0),
});
const WITH_COUNT = "*, (SELECT COUNT(*) FROM list_members m WHERE m.list_pk = lists.pk)::int AS member_count";

export function createListRepo(sql: Sql): ListRepo {
  /** Members are appended in order: the list row is locked so concurrent writers take turns on `seq`. */
  const write = async (tx: Sql, pk: number, members: ListMember[], upsert: boolean) => {
    await exec(tx, "SELECT 1 FROM lists WHERE pk = $1 FOR UPDATE", [pk]);
    let seq = (await one(tx, "SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM list_members WHERE list_pk = $1", [pk]))!.seq as number;
    const onConflict = upsert
      ? "UPDATE SET name = excluded.name, vars = excluded.vars, subscribed = excluded.subscribed, extra = excluded.extra" : "NOTHING";
    let n = 0;
    for (const m of members) {
      n += await exec(tx, `INSERT INTO list_members (list_pk, address, name, vars, subscribed, extra, seq) VALUES ($1, $2, $3, $4, $5, $6, $7)
        ON CONFLICT (list_pk, address) DO ${onConflict}`, [pk, m.address, m.name, JSON.stringify(m.vars), m.subscribed, JSON.stringify(m.extra), seq++]);
    }
    return n;
  };
  return {
    async insertList(l) {
      const r = await one(sql, `INSERT INTO lists (kind, id, scope, domain_id, tenant_id, name, description, extra, created_at, updated_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (kind, scope, id) DO NOTHING RETURNING *, 0 AS member_count`,
        [l.kind, l.id, scopeOf(l.domainId, l.tenantId), l.domainId, l.tenantId, l.name, l.description, JSON.stringify(l.extra), l.createdAt, l.updatedAt]);
      return r ? toList(r) : null;
    },
    async getList(kind, domainId, id, tenant) {
      const r = await one(sql, `SELECT ${WITH_COUNT} FROM lists WHERE kind = $1 AND scope = $2 AND id = $3`, [kind, scopeOf(domainId, tenant), id]);
      return r ? toList(r) : null;
    },
    async listLists(kind, domainIds, tenant) {
      const all = await rows(sql, `SELECT ${WITH_COUNT} FROM lists WHERE kind = $1 ORDER BY created_at, pk`, [kind]);
      return all.filter((r) => inScope(r, domainIds, tenant)).map(toList);
    },
    async updateList(pk, patch, now) {
      try {
        return (await exec(sql, `UPDATE lists SET id = COALESCE($1, id), name = COALESCE($2, name), description = COALESCE($3, description),
          extra = COALESCE($4, extra), updated_at = $5 WHERE pk = $6`,
          [patch.id ?? null, patch.name ?? null, patch.description ?? null, patch.extra ? JSON.stringify(patch.extra) : null, now, pk])) > 0;
      } catch (e) {
        if (isUniqueViolation(e)) return false; // the new id is taken
        throw e;
      }
    },
    async deleteList(pk) {
      return (await exec(sql, "DELETE FROM lists WHERE pk = $1", [pk])) > 0;
    },
    async putMembers(pk, members, upsert) {
      return sql.begin((tx) => write(tx, pk, members, upsert));
    },
    async replaceMembers(pk, members) {
      await sql.begin(async (tx) => {
        await exec(tx, "DELETE FROM list_members WHERE list_pk = $1", [pk]);
        await write(tx, pk, members, true);
      });
    },
    async getMember(pk, address) {
      const r = await one(sql, "SELECT * FROM list_members WHERE list_pk = $1 AND address = $2", [pk, address]);
      return r ? toMember(r) : null;
    },
    async listMembers(pk, opts) {
      const after = opts.after === undefined ? 0
        : ((await one(sql, "SELECT seq FROM list_members WHERE list_pk = $1 AND address = $2", [pk, opts.after]))?.seq as number | undefined) ?? 0;
      const sub = opts.subscribed === undefined ? "" : ` AND subscribed = ${opts.subscribed ? "true" : "false"}`;
      return (await rows(sql, `SELECT * FROM list_members WHERE list_pk = $1 AND seq > $2${sub} ORDER BY seq LIMIT $3`, [pk, after, opts.limit])).map(toMember);
    },
    async deleteMember(pk, address) {
      return (await exec(sql, "DELETE FROM list_members WHERE list_pk = $1 AND address = $2", [pk, address])) > 0;
    },
  };
}

// Stored templates and their versions in the control schema (see core/template-model.ts).
import type { StoredTemplate, TemplateRepo } from "../../core/template-model.ts";
import { json } from "../sqlite/db.ts";
import { scopeOf, scopeWhere, toVersion } from "../sqlite/templates.ts";
import { exec, one, rows, type Sql } from "./db.ts";

/** scopeWhere with PostgreSQL's numbered parameters. */
const where = (domainId: number | null, tenant: number | undefined): [string, number[]] => {
  const [w, args] = scopeWhere(domainId, tenant);
  return [w.replace("?", "$1"), args];
};
type Row = Record<string, unknown>;

export function createTemplateRepo(sql: Sql): TemplateRepo {
  const toTemplate = async (r: Row, db: Sql = sql): Promise<StoredTemplate> => ({
    pk: r.pk as number, id: r.id as string, domainId: (r.domain_id as number | null) ?? null, tenantId: Number(r.tenant_id ?? 0), name: r.name as string,
    description: r.description as string, generation: r.generation as StoredTemplate["generation"], extra: json(r.extra, {}),
    createdAt: r.created_at as number, updatedAt: r.updated_at as number,
    versions: (await rows(db, "SELECT * FROM template_versions WHERE template_pk = $1 ORDER BY created_at, seq", [r.pk as number])).map(toVersion),
  });
  const touch = (db: Sql, at: number, pk: number) => exec(db, "UPDATE templates SET updated_at = $1 WHERE pk = $2", [at, pk]);
  return {
    async insertTemplate(t) {
      const r = await one(sql, `INSERT INTO templates (id, scope, domain_id, tenant_id, name, description, generation, extra, created_at, updated_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (scope, id) DO NOTHING RETURNING *`,
        [t.id, scopeOf(t.domainId, t.tenantId), t.domainId, t.tenantId, t.name, t.description, t.generation, JSON.stringify(t.extra), t.createdAt, t.updatedAt]);
      return r ? toTemplate(r) : null;
    },
    async getTemplate(domainId, id, tenant) {
      const [w, args] = where(domainId, tenant);
      const r = await one(sql, `SELECT * FROM templates WHERE ${w} AND id = $${args.length + 1} ORDER BY tenant_id LIMIT 1`, [...args, id]);
      return r ? toTemplate(r) : null;
    },
    async listTemplates(domainId, tenant) {
      const [w, args] = where(domainId, tenant);
      return Promise.all((await rows(sql, `SELECT * FROM templates WHERE ${w} ORDER BY created_at, pk`, args)).map((r) => toTemplate(r)));
    },
    async updateTemplate(pk, patch, now) {
      await exec(sql, `UPDATE templates SET name = COALESCE($1, name), description = COALESCE($2, description),
        extra = COALESCE($3, extra), updated_at = $4 WHERE pk = $5`,
        [patch.name ?? null, patch.description ?? null, patch.extra ? JSON.stringify(patch.extra) : null, now, pk]);
    },
    async deleteTemplate(pk) {
      return (await exec(sql, "DELETE FROM templates WHERE pk = $1", [pk])) > 0;
    },
    async putVersion(pk, v) {
      await sql.begin(async (tx) => {
        if (v.active) await exec(tx, "UPDATE template_versions SET active = false WHERE template_pk = $1", [pk]);
        await exec(tx, `INSERT INTO template_versions (template_pk, id, name, subject, html, text, active, extra, created_at, updated_at)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (template_pk, id) DO UPDATE SET name = excluded.name,
          subject = excluded.subject, html = excluded.html, text = excluded.text, active = excluded.active,
          extra = excluded.extra, updated_at = excluded.updated_at`,
          [pk, v.id, v.name, v.subject ?? null, v.html ?? null, v.text ?? null, v.active, JSON.stringify(v.extra), v.createdAt, v.updatedAt]);
        await touch(tx, v.updatedAt, pk);
      });
    },
    async deleteVersion(pk, id) {
      return (await exec(sql, "DELETE FROM template_versions WHERE template_pk = $1 AND id = $2", [pk, id])) > 0;
    },
    async activateVersion(pk, id, now) {
      return sql.begin(async (tx) => {
        if (!(await one(tx, "SELECT 1 FROM template_versions WHERE template_pk = $1 AND id = $2 FOR UPDATE", [pk, id]))) return false;
        await exec(tx, `UPDATE template_versions SET active = (id = $1), updated_at = CASE WHEN id = $1 THEN $2 ELSE updated_at END
          WHERE template_pk = $3`, [id, now, pk]);
        await touch(tx, now, pk);
        return true;
      });
    },
  };
}

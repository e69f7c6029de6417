// Stored templates and their versions in control.sqlite (see core/template-model.ts).
import type { Database } from "bun:sqlite";
import type { StoredTemplate, TemplateRepo, TemplateVersion } from "../../core/template-model.ts";
import { bool, json } from "./db.ts";

type Row = Record<string, unknown>;
// The unique key's scope: the domain, or minus the tenant for account-wide rows (migrations-tenscope.ts).
export const scopeOf = (domainId: number | null, tenant = 0) => domainId ?? -tenant;
/** The rows of a domain, of one tenant's account, or (tenant undefined) of every tenant's account. */
export function scopeWhere(domainId: number | null, tenant: number | undefined): [string, number[]] {
  if (domainId !== null) return ["scope = ?", [domainId]];
  return tenant === undefined ? ["domain_id IS NULL", []] : ["scope = ?", [-tenant]];
}
const opt = (v: unknown) => (typeof v === "string" ? v : undefined);

export const toVersion = (r: Row): TemplateVersion => ({
  id: r.id as string, name: r.name as string, subject: opt(r.subject), html: opt(r.html), text: opt(r.text),
  active: bool(r.active), extra: json(r.extra, {}), createdAt: r.created_at as number, updatedAt: r.updated_at as number,
});

export function createTemplateRepo(db: Database): TemplateRepo {
  const versionsOf = db.query("SELECT * FROM template_versions WHERE template_pk = ? ORDER BY created_at, rowid");
  const toTemplate = (r: Row): StoredTemplate => ({
    pk: r.pk as number, id: r.id as string, domainId: (r.domain_id as number | null) ?? null, tenantId: Number(r.tenant_id ?? 0), name: r.name as string,
    description: r.description as string, generation: r.generation as StoredTemplate["generation"], extra: json(r.extra, {}),
    createdAt: r.created_at as number, updatedAt: r.updated_at as number,
    versions: (versionsOf.all(r.pk as number) as Row[]).map(toVersion),
  });
  const touch = db.query("UPDATE templates SET updated_at = ? WHERE pk = ?");
  return {
    async insertTemplate(t) {
      const r = db.query(`INSERT INTO templates (id, scope, domain_id, tenant_id, name, description, generation, extra, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (scope, id) DO NOTHING RETURNING *`)
        .get(t.id, scopeOf(t.domainId, t.tenantId), t.domainId, t.tenantId, t.name, t.description, t.generation, JSON.stringify(t.extra), t.createdAt, t.updatedAt) as Row | null;
      return r ? toTemplate(r) : null;
    },
    async getTemplate(domainId, id, tenant) {
      const [where, args] = scopeWhere(domainId, tenant);
      const r = db.query(`SELECT * FROM templates WHERE ${where} AND id = ? ORDER BY tenant_id LIMIT 1`).get(...args, id) as Row | null;
      return r ? toTemplate(r) : null;
    },
    async listTemplates(domainId, tenant) {
      const [where, args] = scopeWhere(domainId, tenant);
      return (db.query(`SELECT * FROM templates WHERE ${where} ORDER BY created_at, pk`).all(...args) as Row[]).map(toTemplate);
    },
    async updateTemplate(pk, patch, now) {
      db.query(`UPDATE templates SET name = COALESCE(?, name), description = COALESCE(?, description),
        extra = COALESCE(?, extra), updated_at = ? WHERE pk = ?`)
        .run(patch.name ?? null, patch.description ?? null, patch.extra ? JSON.stringify(patch.extra) : null, now, pk);
    },
    async deleteTemplate(pk) {
      return db.query("DELETE FROM templates WHERE pk = ?").run(pk).changes > 0;
    },
    async putVersion(pk, v) {
      db.transaction(() => {
        if (v.active) db.query("UPDATE template_versions SET active = 0 WHERE template_pk = ?").run(pk);
        db.query(`INSERT INTO template_versions (template_pk, id, name, subject, html, text, active, extra, created_at, updated_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (template_pk, id) DO UPDATE SET name = excluded.name,
          subject = excluded.subject, html = excluded.html, text = excluded.text, active = excluded.active,
          extra = excluded.extra, updated_at = excluded.updated_at`)
          .run(pk, v.id, v.name, v.subject ?? null, v.html ?? null, v.text ?? null, v.active ? 1 : 0, JSON.stringify(v.extra), v.createdAt, v.updatedAt);
        touch.run(v.updatedAt, pk);
      }).immediate();
    },
    async deleteVersion(pk, id) {
      return db.query("DELETE FROM template_versions WHERE template_pk = ? AND id = ?").run(pk, id).changes > 0;
    },
    async activateVersion(pk, id, now) {
      return db.transaction(() => {
        const found = db.query("SELECT 1 FROM template_versions WHERE template_pk = ? AND id = ?").get(pk, id);
        if (!found) return false;
        db.query("UPDATE template_versions SET active = (id = ?), updated_at = CASE WHEN id = ? THEN ? ELSE updated_at END WHERE template_pk = ?").run(id, id, now, pk);
        touch.run(now, pk);
        return true;
      }).immediate();
    },
  };
}

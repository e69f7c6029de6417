// Stored templates for every surface: a template is owned by one domain or by a tenant's account,
// and a domain key sees its own domain's templates and its tenant's account ones (read-only), never
// another domain's; no key sees another tenant's (docs/tenants.md). Sends resolve a template in the
// sending domain, then its tenant's account, then the templates directory (the import source of
// earlier versions). Surfaces only translate wire shapes.
import type { Principal } from "./model.ts";
import { readTenant } from "./permissions.ts";
import { AppError, conflict, forbidden, notFound } from "./errors.ts";
import type { NewTemplate, StoredTemplate, TemplateRepo, TemplateVersion } from "./template-model.ts";
import type { TemplateParts, TemplateStore } from "./templates.ts";
import type { AuditWriter } from "./audit.ts";
import { describeRenderError, renderHandlebars, type Dialect, type RenderBudget } from "./handlebars-dialect.ts";

/** A template as a send uses it: its identity, the version chosen, and that version's parts. */
export interface ResolvedTemplate {
  id: string;
  version: string;
  generation: StoredTemplate["generation"];
  parts: TemplateParts;
  /** The version's vendor fields (SparkPost from / reply_to / headers). */
  extra: Record<string, unknown>;
  /** The template's own vendor fields (SparkPost options). */
  templateExtra: Record<string, unknown>;
}

export interface TemplateService {
  /** The scope a principal creates templates in: its domain, or (null) its acting tenant's account. */
  ownerOf(p: Principal): { domainId: number | null; tenantId: number };
  list(p: Principal): Promise<StoredTemplate[]>;
  /** A domain's own templates. */
  listIn(domainId: number): Promise<StoredTemplate[]>;
  /** A template the principal may see; `write` refuses account templates to domain keys (403). */
  find(p: Principal, id: string, access?: "read" | "write"): Promise<StoredTemplate | null>;
  findIn(domainId: number, id: string): Promise<StoredTemplate | null>;
  create(t: Omit<NewTemplate, "createdAt" | "updatedAt">): Promise<StoredTemplate>;
  update(t: StoredTemplate, patch: { name?: string; description?: string; extra?: Record<string, unknown> }): Promise<StoredTemplate>;
  remove(t: StoredTemplate): Promise<void>;
  putVersion(t: StoredTemplate, v: Omit<TemplateVersion, "createdAt" | "updatedAt"> & { createdAt?: number }): Promise<TemplateVersion>;
  removeVersion(t: StoredTemplate, versionId: string): Promise<boolean>;
  activate(t: StoredTemplate, versionId: string): Promise<boolean>;
  /** For a send from `scope.domainId` (null: none) of tenant `scope.tenantId`: the named (or active) version, or null when there is no such template. */
  resolve(scope: TemplateScope, id: string, versionId?: string): Promise<ResolvedTemplate | null>;
  /** Renders Handlebars parts; errors become AppError(invalid) naming template, version and cause. */
  render(t: ResolvedTemplate, data: unknown, dialect: Dialect): TemplateParts;
  /** The templates one domain's sends see, as the file store's interface (active versions, rendered in `dialect`). */
  forDomain(domain: { id: number; tenantId?: number }, dialect: Dialect): TemplateStore;
}

/** Where a send looks a template up: its domain's, then its tenant's account-wide ones. */
export interface TemplateScope { domainId: number | null; tenantId: number }

/** The scope of a send from `domain` (its own tenant's templates). */
export const sendScope = (domain: { id: number; tenantId?: number }): TemplateScope => ({ domainId: domain.id, tenantId: domain.tenantId ?? 0 });

export const activeVersion = (t: StoredTemplate) => t.versions.find((v) => v.active);

export function createTemplateService(deps: { repo: TemplateRepo; files: TemplateStore; now: () => number; budget?: RenderBudget; audit?: AuditWriter }): TemplateService {
  const { repo, now } = deps;
  // Every change is recorded under the template's own tenant ("template.update", target the template id).
  const record = (action: string, t: StoredTemplate) => deps.audit?.record(`template.${action}`, t.id, t.tenantId);
  const reload = async (t: StoredTemplate) => (await repo.getTemplate(t.domainId, t.id, t.tenantId))!;

  async function fromFiles(id: string, versionId?: string): Promise<ResolvedTemplate | null> {
    if (versionId) return null;
    const parts = await deps.files.get(id);
    return parts ? { id, version: "file", generation: "dynamic", parts, extra: {}, templateExtra: {} } : null;
  }

  return {
    ownerOf: (p) => ({ domainId: p.kind === "domain" ? (p.domain?.id ?? null) : null, tenantId: p.tenant ?? 0 }),
    // An account key reads its acting tenant's account templates (every tenant's when its reads cover all).
    async list(p) {
      const { domainId } = this.ownerOf(p);
      const own = await repo.listTemplates(domainId, readTenant(p));
      return p.kind === "domain" ? [...own, ...(await repo.listTemplates(null, p.tenant ?? 0))] : own;
    },
    listIn: (domainId) => repo.listTemplates(domainId),
    async find(p, id, access = "read") {
      const { domainId } = this.ownerOf(p);
      const own = await repo.getTemplate(domainId, id, readTenant(p));
      if (own || domainId === null) return own;
      const shared = await repo.getTemplate(null, id, p.tenant ?? 0);
      if (shared && access === "write") throw forbidden(`template ${id} belongs to the account: a domain key may use it, not change it`);
      return shared;
    },
    findIn: (domainId, id) => repo.getTemplate(domainId, id),
    async create(t) {
      const at = now();
      const created = await repo.insertTemplate({ ...t, createdAt: at, updatedAt: at });
      if (!created) throw conflict(`template ${t.id} already exists`);
      await record("create", created);
      return created;
    },
    async update(t, patch) {
      await repo.updateTemplate(t.pk, patch, now());
      await record("update", t);
      return reload(t);
    },
    async remove(t) {
      if (await repo.deleteTemplate(t.pk)) await record("delete", t);
    },
    async putVersion(t, v) {
      const at = now();
      const existing = t.versions.find((x) => x.id === v.id);
      const version = { ...v, createdAt: existing?.createdAt ?? v.createdAt ?? at, updatedAt: at };
      await repo.putVersion(t.pk, version);
      await record("update", t);
      return version;
    },
    async removeVersion(t, versionId) {
      const done = await repo.deleteVersion(t.pk, versionId);
      if (done) await record("update", t);
      return done;
    },
    async activate(t, versionId) {
      const done = await repo.activateVersion(t.pk, versionId, now());
      if (done) await record("update", t);
      return done;
    },
    async resolve(scope, id, versionId) {
      const t = (scope.domainId !== null ? await repo.getTemplate(scope.domainId, id) : null) ?? (await repo.getTemplate(null, id, scope.tenantId));
      if (!t) return fromFiles(id, versionId);
      const v = versionId ? t.versions.find((x) => x.id === versionId) : activeVersion(t);
      if (!v) return null;
      return { id: t.id, version: v.id, generation: t.generation, parts: { subject: v.subject, html: v.html, text: v.text }, extra: v.extra, templateExtra: t.extra };
    },
    forDomain(domain, dialect) {
      return {
        get: async (name) => (await this.resolve(sendScope(domain), name))?.parts ?? null,
        render: async (name, data) => {
          const t = await this.resolve(sendScope(domain), name);
          return t ? this.render(t, data, dialect) : null;
        },
      };
    },
    render(t, data, dialect) {
      const out: TemplateParts = {};
      for (const part of ["subject", "html", "text"] as const) {
        const source = t.parts[part];
        if (source === undefined) continue;
        try {
          out[part] = renderHandlebars(source, data, { dialect, escapeHtml: part === "html", limits: deps.budget });
        } catch (err) {
          throw new AppError("invalid", `template ${t.id} version ${t.version} (${part}) could not be rendered: ${describeRenderError(err)}`, { field: "template" });
        }
      }
      return out;
    },
  };
}

export const notFoundTemplate = (id: string) => notFound(`template ${id} not found`);

// Stored templates: a template belongs to one domain (domainId) or to its tenant's account (null),
// holds versions, and at most one version is active (the one a send uses when none is named).
// The port the store implements is declared here so the core owns the shape.

export type TemplateGeneration = "legacy" | "dynamic";

export interface TemplateVersion {
  id: string;
  name: string;
  subject?: string;
  html?: string;
  text?: string;
  active: boolean;
  /** Vendor fields kept as given (SendGrid editor/test_data, Mailgun comment, SparkPost from/options...). */
  extra: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
}

export interface StoredTemplate {
  pk: number;
  id: string;
  domainId: number | null;
  /** The owning tenant (a domain's template: the domain's tenant). */
  tenantId: number;
  name: string;
  description: string;
  generation: TemplateGeneration;
  extra: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
  versions: TemplateVersion[];
}

export type NewTemplate = Omit<StoredTemplate, "pk" | "versions">;

export interface TemplateRepo {
  /** Null when the id is taken in that scope. */
  insertTemplate(t: NewTemplate): Promise<StoredTemplate | null>;
  /** A domain's template, or (domainId null) one of `tenant`'s account-wide ones (undefined: any tenant's, the primary's first). */
  getTemplate(domainId: number | null, id: string, tenant?: number): Promise<StoredTemplate | null>;
  /** A domain's templates, or (domainId null) `tenant`'s account-wide ones (undefined: every tenant's). */
  listTemplates(domainId: number | null, tenant?: number): Promise<StoredTemplate[]>;
  updateTemplate(pk: number, patch: { name?: string; description?: string; extra?: Record<string, unknown> }, now: number): Promise<void>;
  deleteTemplate(pk: number): Promise<boolean>;
  /** Inserts or replaces one version; an active version makes every other version inactive. */
  putVersion(pk: number, v: TemplateVersion): Promise<void>;
  deleteVersion(pk: number, id: string): Promise<boolean>;
  activateVersion(pk: number, id: string, now: number): Promise<boolean>;
}

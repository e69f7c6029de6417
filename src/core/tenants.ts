// Tenants (contract §14): the primary account is tenant 0; every other tenant is a subaccount
// (SendGrid subuser, Mailgun and SparkPost subaccount) with a numeric id and a unique name that
// every surface shows the same. A tenant owns domains and keys; data reached through a domain
// (events, suppressions, messages, stats, domain webhooks) is the domain's tenant's (docs/tenants.md).
import { conflict, invalid, notFound } from "./errors.ts";
import type { AuditWriter } from "./audit.ts";

export const PRIMARY_TENANT = 0;
export const TENANT_STATUSES = ["active", "suspended", "terminated"] as const;
export type TenantStatus = (typeof TENANT_STATUSES)[number];

export interface Tenant {
  id: number;
  name: string;
  status: TenantStatus;
  createdAt: number;
  /** Messages it may send per calendar month (UTC); absent: no limit (core/tenant-quota.ts). */
  monthlyLimit?: number;
  /** The egress pool its mail leaves through unless a message or its domain names one; absent: the default. */
  pool?: string;
}

/** The port: tenants in the control store. Tenant 0 is made by the migration and never changes name. */
export interface TenantStore {
  /** Stores a new tenant; the engine assigns the next id (1, 2, …); a taken name throws. */
  insertTenant(t: { name: string; status: TenantStatus; createdAt: number }): Promise<Tenant>;
  getTenant(q: { id: number } | { name: string }): Promise<Tenant | null>;
  /** Every tenant, tenant 0 first, by id. */
  listTenants(): Promise<Tenant[]>;
  /** Changes what the patch names; `null` clears the monthly limit or the pool. */
  updateTenant(id: number, patch: TenantPatch): Promise<Tenant | null>;
}

export interface TenantPatch { name?: string; status?: TenantStatus; monthlyLimit?: number | null; pool?: string | null }

const NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

/**
 * The tenant of a domain, which a change to the domain's data is recorded under whoever acts (an API
 * key acts only for it anyway; the CLI for none), so the tenant's audit log shows every change to it.
 */
export const domainTenant = (d: { tenantId?: number | null }): number => d.tenantId ?? PRIMARY_TENANT;

/** True when a tenant in this status may change things and send (suspended and terminated: read-only). */
export const mayWrite = (t: Pick<Tenant, "status">) => t.status === "active";

export interface TenantDeps {
  store: TenantStore;
  now: () => number;
  audit?: AuditWriter;
  /** True for a configured egress pool (core/egress/directory.ts); absent: any name is taken. */
  hasPool?: (name: string) => boolean;
}

export function createTenantService(deps: TenantDeps) {
  const { store } = deps;

  /** A tenant by id (a number or its decimal spelling) or by name; a 404 otherwise. */
  async function require(ref: number | string): Promise<Tenant> {
    const t = typeof ref === "number" || /^\d{1,9}$/.test(ref)
      ? await store.getTenant({ id: Number(ref) })
      : await store.getTenant({ name: ref });
    if (!t) throw notFound(`tenant ${ref} not found`);
    return t;
  }

  function checkName(name: string): string {
    const n = name.trim();
    // A name of digits only would read as an id wherever a tenant is named (CLI, headers).
    if (!NAME.test(n) || /^\d+$/.test(n)) throw invalid(`"${name}" is not a valid tenant name (letters, digits, . _ @ -, not digits only)`, "name");
    return n;
  }

  async function setStatus(ref: number | string, status: string): Promise<Tenant> {
    if (!(TENANT_STATUSES as readonly string[]).includes(status)) throw invalid(`status must be one of ${TENANT_STATUSES.join(", ")}`, "status");
    const t = await require(ref);
    if (t.id === PRIMARY_TENANT) throw invalid("the primary account (tenant 0) cannot be suspended or terminated", "status");
    if (t.status === "terminated" && status !== "terminated") throw invalid("a terminated tenant stays terminated", "status");
    const updated = (await store.updateTenant(t.id, { status: status as TenantStatus }))!;
    await deps.audit?.record(`tenant.${status === "active" ? "enable" : status === "suspended" ? "suspend" : "terminate"}`, t.name, t.id);
    return updated;
  }

  return {
    require,
    get: (id: number) => store.getTenant({ id }),
    list: () => store.listTenants(),

    /** Every tenant but the primary: the vendors' subusers and subaccounts, by id. */
    subaccounts: async (): Promise<Tenant[]> => (await store.listTenants()).filter((t) => t.id !== PRIMARY_TENANT),

    /**
     * A subaccount (a tenant other than the primary) by its id as a path spells it (decimal), or
     * also by name when `byName` (SendGrid's subusers are named); null when there is none, so each
     * surface answers its own 404. Ids only by default: a name would give one resource two addresses.
     */
    async subaccount(ref: string, byName = false): Promise<Tenant | null> {
      const t = /^\d{1,9}$/.test(ref) ? await store.getTenant({ id: Number(ref) }) : byName ? await store.getTenant({ name: ref }) : null;
      return t && t.id !== PRIMARY_TENANT ? t : null;
    },

    async add(name: string): Promise<Tenant> {
      const n = checkName(name);
      if (await store.getTenant({ name: n })) throw conflict(`tenant ${n} already exists`);
      const t = await store.insertTenant({ name: n, status: "active", createdAt: deps.now() });
      await deps.audit?.record("tenant.add", t.name, t.id);
      return t;
    },

    async rename(ref: number | string, name: string): Promise<Tenant> {
      const t = await require(ref);
      const n = checkName(name);
      if (t.id === PRIMARY_TENANT) throw invalid("the primary account (tenant 0) keeps its name", "name");
      const other = await store.getTenant({ name: n });
      if (other && other.id !== t.id) throw conflict(`tenant ${n} already exists`);
      const updated = (await store.updateTenant(t.id, { name: n }))!;
      await deps.audit?.record("tenant.rename", n, t.id);
      return updated;
    },

    setStatus,

    /** Gives the tenant an egress pool its mail leaves through (null: none, the default pool). */
    async setPool(ref: number | string, pool: string | null): Promise<Tenant> {
      const t = await require(ref);
      const name = pool?.trim() || null;
      if (name !== null && deps.hasPool && !deps.hasPool(name)) throw invalid(`unknown ip pool "${name}"`, "pool");
      const updated = (await store.updateTenant(t.id, { pool: name }))!;
      await deps.audit?.record("tenant.pool", name ? `${t.name} ${name}` : t.name, t.id);
      return updated;
    },

    suspend: (ref: number | string) => setStatus(ref, "suspended"),
  };
}

export type TenantService = ReturnType<typeof createTenantService>;

// Per-tenant monthly message limits (contract §14: "Limits (messages per month) … apply per
// tenant"). A counter per tenant and calendar month (UTC) in the control store is taken before a
// send is accepted and given back when the accept fails: one row update per send, never a scan of
// the month's mail. A tenant without a limit is not counted; setting a limit seeds the month's
// counter from its domains' sends so far (one scan, when the limit is set, not per send).
import type { Store } from "./store-port.ts";
import { createTenantService, type Tenant, type TenantService } from "./tenants.ts";
import type { AuditWriter } from "./audit.ts";
import { AppError, invalid } from "./errors.ts";
import { windowStart } from "./limits.ts";
import type { TenantSendCounter } from "./tenant-quota-port.ts";

export type { TenantSendCounter } from "./tenant-quota-port.ts";

const monthOf = (now: number) => windowStart("month", now);
const noop = async () => {};

/**
 * Takes `n` messages of `tenant`'s month, or refuses them with the over-limit error every surface
 * maps as it maps a domain's sending limit (payment_required). Returns what gives them back (for a
 * send that failed after the take).
 */
export async function takeMonthlySends(counter: TenantSendCounter, tenant: Tenant, n: number, now: number): Promise<() => Promise<void>> {
  if (tenant.monthlyLimit === undefined) return noop;
  const month = monthOf(now);
  if (!(await counter.takeTenantSends(tenant.id, month, n, tenant.monthlyLimit))) {
    throw new AppError("payment_required", `monthly limit of ${tenant.monthlyLimit} messages reached for tenant ${tenant.name}`);
  }
  return async () => { await counter.takeTenantSends(tenant.id, month, -n, null); };
}

export interface TenantQuotaDeps {
  store: Store;
  tenants: TenantService;
  now: () => number;
  audit?: AuditWriter;
}

/** A tenant's limit as the CLI and the vendors' limit routes show it. */
export interface TenantUsage { tenant: Tenant; limit: number | null; used: number; since: number }

export function createTenantQuota(deps: TenantQuotaDeps) {
  const { store } = deps;

  /** The month's sends of the tenant's domains served here, read from the messages (used when a limit is set). */
  async function countMonth(tenant: number, month: number): Promise<number> {
    const zones = new Set(store.zoneNames());
    let n = 0;
    for (const d of await store.control.listDomains(tenant)) if (zones.has(d.zone)) n += await store.zone(d.zone).countSends(d.name, month);
    return n;
  }

  return {
    async usage(ref: number | string): Promise<TenantUsage> {
      const tenant = await deps.tenants.require(ref);
      const since = monthOf(deps.now());
      const used = tenant.monthlyLimit === undefined ? await countMonth(tenant.id, since) : await store.control.tenantSends(tenant.id, since);
      return { tenant, limit: tenant.monthlyLimit ?? null, used, since };
    },

    /** Sets (a whole number, 0 and up) or clears (null) the tenant's monthly limit. */
    async setLimit(ref: number | string, limit: number | null): Promise<Tenant> {
      if (limit !== null && (!Number.isSafeInteger(limit) || limit < 0)) throw invalid("the monthly limit must be a whole number of messages, 0 or more", "limit");
      const tenant = await deps.tenants.require(ref);
      if (limit !== null && tenant.monthlyLimit === undefined) {
        const month = monthOf(deps.now());
        await store.control.setTenantSends(tenant.id, month, await countMonth(tenant.id, month));
      }
      const updated = (await store.control.updateTenant(tenant.id, { monthlyLimit: limit }))!;
      await deps.audit?.record("tenant.limit", limit === null ? tenant.name : `${tenant.name} ${limit}`, tenant.id);
      return updated;
    },
  };
}

export type TenantQuota = ReturnType<typeof createTenantQuota>;

/** The tenant service and its monthly limits, built together (app.ts). */
export function createTenancy(deps: Omit<TenantQuotaDeps, "tenants"> & { hasPool?: (name: string) => boolean }) {
  const tenants = createTenantService({ store: deps.store.control, now: deps.now, audit: deps.audit, hasPool: deps.hasPool });
  return { tenants, tenantQuota: createTenantQuota({ ...deps, tenants }) };
}

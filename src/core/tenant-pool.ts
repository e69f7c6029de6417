// A tenant's egress pool (contract §14: "pools apply per tenant"). Mail of a tenant's domains leaves
// through the tenant's pool unless the message names a pool or a sending address, or its domain
// has a pool of its own (the narrower choice wins). Read at each delivery attempt, so a pool given
// to a tenant applies to its queued mail as well; tenants' pools are kept a few seconds, sparing
// the control store a read per attempt.
import type { Domain } from "./model.ts";
import { PRIMARY_TENANT, type TenantStore } from "./tenants.ts";

const KEEP_MS = 10_000;

/** `getDomain` whose answer carries, when the domain names no pool, its tenant's (`pool`). */
export function withTenantPool(getDomain: (name: string) => Promise<Domain | null>, tenants: Pick<TenantStore, "getTenant">, now: () => number) {
  const pools = new Map<number, { pool: string | undefined; at: number }>();
  async function poolOf(tenant: number): Promise<string | undefined> {
    const hit = pools.get(tenant);
    if (hit && now() - hit.at < KEEP_MS) return hit.pool;
    const pool = (await tenants.getTenant({ id: tenant }))?.pool;
    pools.set(tenant, { pool, at: now() });
    return pool;
  }
  return async (name: string): Promise<Domain | null> => {
    const d = await getDomain(name);
    if (!d || d.pool) return d;
    const pool = await poolOf(d.tenantId ?? PRIMARY_TENANT);
    return pool ? { ...d, pool } : d;
  };
}

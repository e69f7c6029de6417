// A tenant's egress pool (contract §14: "pools apply per tenant"). Mail of a tenant's domains leaves
// through the tenant's pool unless the message names a pool or a sending address, or its domain
// has a pool of its own (the narrower choice wins). Read at each delivery attempt, so a pool given
// to a tenant applies to its queued mail as well; tenants' pools are kept a few seconds, sparing
// the control store a read per attempt.
import type { Domain } from "./model.ts";
import { PRIMARY_TENANT, type Tenant, type TenantStore } from "./tenants.ts";
import { checkEgressChoice, DEFAULT_POOL, type EgressDirectory } from "./egress/directory.ts";

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

/**
 * The pools a tenant's mail leaves through: its own (else the default) and its domains' own. A
 * principal of another tenant than the primary sees only these of the installation's egress
 * (core/permissions.ts `egressTenant`), as a SendGrid subuser sees only the IPs assigned to it and
 * a SparkPost subaccount only the pools assigned to it.
 */
export function poolsServing(tenantPool: string | null | undefined, domains: readonly Pick<Domain, "pool">[]): ReadonlySet<string> {
  return new Set([tenantPool || DEFAULT_POOL, ...domains.map((d) => d.pool).filter((p): p is string => !!p)]);
}

/**
 * A message's own pool or sending address (SendGrid ip_pool_name, Mailgun o:sending-ip-pool and
 * o:sending-ip, SparkPost options.ip_pool, native pool) must be configured and, for a tenant other
 * than the primary, serve that tenant: it uses only the egress it sees. `domains` lists the tenant's.
 */
export async function checkTenantEgress(req: { ipPool?: string; sendingIp?: string }, egress: EgressDirectory, tenant: Tenant | null,
  domains: (tenant: number) => Promise<readonly Pick<Domain, "pool">[]>): Promise<void> {
  if (!req.ipPool && !req.sendingIp) return;
  const id = tenant?.id ?? PRIMARY_TENANT;
  checkEgressChoice(req, egress, id === PRIMARY_TENANT ? undefined : poolsServing(tenant?.pool, await domains(id)));
}

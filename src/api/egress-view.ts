// What a request sees of the installation's egress (contract §9, §14): the operator's own principals
// (the primary acting for itself) every source and pool; any other tenant's key, or the primary
// acting for one, only the pools its mail leaves through, so the vendors' IP and pool listings
// show a tenant what serves it and nothing of the installation's other addresses. Read-only on
// every surface: sources and pools are configured in [mta.egress] and [mta.pools].
import type { SurfaceDeps } from "./deps.ts";
import { principalOf } from "./context.ts";
import { egressTenant } from "../core/permissions.ts";
import { poolsServing } from "../core/tenant-pool.ts";
import type { EgressStatus } from "../core/egress/directory.ts";

type Deps = Pick<SurfaceDeps, "egress" | "tenants" | "domains">;

export interface EgressView {
  /** The pool names the request may see, in the configured order. */
  pools: string[];
  /** The sources' status lines the request may see (a source in no pool: the installation's view only). */
  sources(): Promise<EgressStatus[]>;
  has(pool: string): boolean;
  /** True for an address of a visible source (the doctor's egress subjects, blocklist entries); an address no source names is the machine's default one, seen with a visible source without an address. */
  seesAddress(address: string): boolean;
}

export async function egressView(deps: Deps, request: Request): Promise<EgressView> {
  const tenant = egressTenant(principalOf(request));
  const all = deps.egress.directory.poolNames();
  const seen = tenant === undefined ? null
    : poolsServing((await deps.tenants.get(tenant))?.pool, await deps.domains.list(tenant));
  const visible = (pool: string | null) => seen === null || (pool !== null && seen.has(pool));
  const sources = deps.egress.directory.sources;
  const configured = new Set(sources.flatMap((s) => (s.address ? [s.address] : [])));
  const shown = new Set(sources.filter((s) => visible(s.pool)).map((s) => s.address));
  return {
    pools: all.filter(visible),
    sources: async () => (await deps.egress.list()).filter((s) => visible(s.pool)),
    has: (pool) => deps.egress.directory.hasPool(pool) && visible(pool),
    seesAddress: (address) => seen === null || shown.has(address) || (shown.has(null) && !configured.has(address)),
  };
}

// Mailgun's IP listings over postern's egress sources (contract §9): GET /v3/ips (every source
// address; assignable_to_pools: those of a pool) and GET /v3/domains/{d}/ips (the addresses of the
// domain's pool: `postern domain set NAME --pool`, else its tenant's, else the default pool).
// Read-only. A subaccount sees only the addresses serving it (../egress-view.ts).
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import { json } from "../errors.ts";
import { permissions } from "../permission.ts";
import { accountOnly } from "./policy.ts";
import { egressView } from "../egress-view.ts";

type Deps = Pick<SurfaceDeps, "egress" | "domains" | "tenants">;

export function ipRoutes(deps: Deps) {
  return new Elysia({ name: "mailgun-ips" }).use(permissions)
    .get("/v3/ips", async ({ request }) => {
      const all = await (await egressView(deps, request)).sources();
      const items = all.map((s) => s.address);
      return json(200, { assignable_to_pools: all.filter((s) => s.pool !== null).map((s) => s.address), items, total_count: items.length });
    }, { permission: accountOnly("account.read") })
    .get("/v3/domains/:domain/ips", async ({ params }) => {
      const domain = await deps.domains.require(params.domain);
      const tenantPool = (await deps.tenants.get(domain.tenantId ?? 0))?.pool;
      const pool = deps.egress.directory.pool(deps.egress.directory.poolFor(null, domain.pool || tenantPool)) ?? deps.egress.directory.pool("default")!;
      const items = pool.map((s) => s.address ?? "0.0.0.0");
      return json(200, { items, total_count: items.length });
    }, { permission: accountOnly("domains.read") });
}

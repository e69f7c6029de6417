// Mailgun's IP listings over postern's egress sources (contract §9): GET /v3/ips (every source
// address; assignable_to_pools: those of a pool) and GET /v3/domains/{d}/ips (the addresses of the
// domain's pool: `postern domain set NAME --pool`, else the default pool). Read-only.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import { json } from "../errors.ts";
import { permissions } from "../permission.ts";
import { accountOnly } from "./policy.ts";

type Deps = Pick<SurfaceDeps, "egress" | "domains">;

export function ipRoutes(deps: Deps) {
  return new Elysia({ name: "mailgun-ips" }).use(permissions)
    .get("/v3/ips", async () => {
      const all = await deps.egress.list();
      const items = all.map((s) => s.address);
      return json(200, { assignable_to_pools: all.filter((s) => s.pool !== null).map((s) => s.address), items, total_count: items.length });
    }, { permission: accountOnly("account.read") })
    .get("/v3/domains/:domain/ips", async ({ params }) => {
      const domain = await deps.domains.require(params.domain);
      const pool = deps.egress.directory.pool(deps.egress.directory.poolFor(null, domain.pool)) ?? deps.egress.directory.pool("default")!;
      const items = pool.map((s) => s.address ?? "0.0.0.0");
      return json(200, { items, total_count: items.length });
    }, { permission: accountOnly("domains.read") });
}

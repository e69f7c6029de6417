// SparkPost's IP pools over postern's egress pools (contract §9): GET /api/v1/ip-pools and
// GET /api/v1/ip-pools/{id}; each pool's addresses with their EHLO name and warm-up (stage: the
// warm-up day). Read-only: pools are configured in [mta.pools]. A subaccount sees only the pools
// serving it (../egress-view.ts); another is "does not exist", as on SparkPost.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import { json } from "../errors.ts";
import { permissions } from "../permission.ts";
import { need } from "./policy.ts";
import { notFoundError } from "./errors.ts";
import type { EgressStatus } from "../../core/egress/directory.ts";
import { egressView } from "../egress-view.ts";

type Deps = Pick<SurfaceDeps, "egress" | "tenants" | "domains">;

function poolBody(deps: Deps, name: string, status: EgressStatus[]) {
  const ips = deps.egress.directory.pool(name)!.map((src) => {
    const s = status.find((x) => x.name === src.name)!;
    return { external_ip: s.address, hostname: src.ehlo, auto_warmup_overflow_pool: "", auto_warmup_enabled: s.warmup_day !== null,
      ...(s.warmup_day !== null ? { auto_warmup_stage: s.warmup_day } : {}) };
  });
  return { id: name, name, ips, signing_domain: "", fbl_signing_domain: "", auto_warmup_overflow_pool: "" };
}

export function ipPoolRoutes(deps: Deps) {
  return new Elysia({ name: "sparkpost-ip-pools" }).use(permissions)
    .get("/ip-pools", async ({ request }) => {
      const view = await egressView(deps, request);
      const status = await deps.egress.list();
      return json(200, { results: view.pools.map((p) => poolBody(deps, p, status)) });
    }, { permission: need("account.read") })
    .get("/ip-pools/:id", async ({ params, request }) => {
      if (!(await egressView(deps, request)).has(params.id)) throw notFoundError(`IP pool '${params.id}' does not exist`);
      return json(200, { results: poolBody(deps, params.id, await deps.egress.list()) });
    }, { permission: need("account.read") });
}

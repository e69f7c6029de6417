// SendGrid's IP listings over postern's egress sources (contract §9): GET /v3/ips (every source,
// with its pools and warm-up), GET /v3/ips/pools, GET /v3/ips/warmup. Read-only: sources and pools
// are configured in [mta.egress] and [mta.pools]. A subuser (another tenant's key, or on-behalf-of)
// sees only the addresses and pools serving it (../egress-view.ts), as on SendGrid. /v3/ips with a
// Bearer key reaches this surface (src/api/surfaces.ts); with Basic auth it is Mailgun's /v3/ips.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import { json } from "../errors.ts";
import { permissions } from "../permission.ts";
import type { EgressStatus } from "../../core/egress/directory.ts";
import { egressView } from "../egress-view.ts";

type Deps = Pick<SurfaceDeps, "egress" | "tenants" | "domains">;

const IPS = { right: "account.read" } as const;

const unix = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));

function startOf(deps: Deps, s: EgressStatus): number | null {
  return s.warmup_day === null ? null : unix(deps.egress.directory.source(s.name)?.warmupStart ?? null);
}

export function ipRoutes(deps: Deps) {
  return new Elysia({ name: "sendgrid-ips" }).use(permissions)
    .get("/v3/ips", async ({ query, request }) => {
      const q = query as Record<string, string | undefined>;
      const all = (await (await egressView(deps, request)).sources()).filter((s) => !q.ip || s.address === q.ip);
      const offset = Math.max(0, Number(q.offset) || 0);
      const limit = Math.max(1, Math.min(500, Number(q.limit) || 10));
      return json(200, all.slice(offset, offset + limit).map((s) => ({
        ip: s.address, subusers: [], rdns: deps.egress.directory.source(s.name)?.ehlo ?? null, pools: s.pool ? [s.pool] : [],
        warmup: s.warmup_day !== null, start_date: startOf(deps, s), whitelabeled: false, assigned_at: null,
      })));
    }, { permission: IPS })
    .get("/v3/ips/pools", async ({ request }) => json(200, (await egressView(deps, request)).pools.map((name) => ({ name }))), { permission: IPS })
    .get("/v3/ips/warmup", async ({ request }) => {
      const warming = (await (await egressView(deps, request)).sources()).filter((s) => s.warmup_day !== null);
      return json(200, warming.map((s) => ({ ip: s.address, start_date: startOf(deps, s) })));
    }, { permission: IPS });
}

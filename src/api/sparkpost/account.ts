// GET /api/v1/account in SparkPost's shape: the account is postern's single account (usage
// counted from accepted events of the zones served here; no plan limits). With zones served by
// other nodes the usage is added up over every zone by the zone router (api/zones/fanout-routes.ts).
import { Elysia } from "elysia";
import type { Principal } from "../../core/model.ts";
import type { SurfaceDeps } from "../deps.ts";
import { json } from "../errors.ts";
import { principalOf } from "../context.ts";
import { readTenant } from "../../core/permissions.ts";
import { permissions } from "../permission.ts";
import { need } from "./policy.ts";
import { readQuery } from "./query.ts";

type Deps = Pick<SurfaceDeps, "activity" | "domains" | "now">;

const DAY_MS = 86_400_000;

async function usage(deps: Deps, principal: Principal, domains: string[] | null, now: number) {
  const day = Math.floor(now / DAY_MS) * DAY_MS;
  const d = new Date(now);
  const month = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const count = async (begin: number) => {
    // An account key's usage is its reads' tenants' (every tenant's without X-MSYS-SUBACCOUNT on the primary's).
    const lists = domains ? await Promise.all(domains.map((n) => deps.activity.counts(n, begin, now))) : [await deps.activity.tenantCounts(readTenant(principal), begin, now)];
    return lists.flat().filter((c) => c.type === "accepted").reduce((n, c) => n + c.count, 0);
  };
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    timestamp: iso(now),
    // postern has no plan limits: limit 0 means unlimited (domain limits are per domain).
    day: { used: await count(day), limit: 0, start: iso(day), end: iso(day + DAY_MS) },
    month: { used: await count(month), limit: 0, start: iso(month), end: iso(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)) },
  };
}

/** The account as SparkPost describes one; `include=usage` adds this month's and today's sends. */
export async function accountOf(deps: Deps, principal: Principal, withUsage: boolean) {
  const domains = principal.kind === "domain" && principal.domain ? [principal.domain] : await deps.domains.list(readTenant(principal));
  const created = domains.reduce((min, d) => Math.min(min, d.createdAt), deps.now());
  const tracking = domains[0];
  const now = deps.now();
  return {
    customer_id: principal.accountId, company_name: "", country_code: "", status: "active", status_reason_category: "",
    created: new Date(created).toISOString(), updated: new Date(now).toISOString(), tfa_required: false, service_level: "standard",
    subscription: { code: "postern", name: "postern", plan_volume: 0, self_serve: true, type: "default" },
    options: { smtp_tracking_default: false, rest_tracking_default: tracking?.openTracking ?? false, transactional_unsub: false,
      transactional_default: false, initial_open_pixel_tracking: tracking?.openTracking ?? false, click_tracking: tracking?.clickTracking ?? false },
    support: { online: false, phone: false },
    ...(withUsage ? { usage: await usage(deps, principal, principal.kind === "domain" ? domains.map((d) => d.name) : null, now) } : {}),
  };
}

export function accountRoutes(deps: Deps) {
  return new Elysia({ name: "sparkpost-account" }).use(permissions)
    .get("/account", async ({ request }) => {
      const principal = principalOf(request);
      return json(200, { results: await accountOf(deps, principal, readQuery(request).str("include") === "usage") });
    }, { permission: need("account.read") });
}

// Mailgun's custom monthly sending limits over core/tenant-quota.ts: a subaccount's
// (/v5/accounts/subaccounts/{id}/limit/custom/monthly, the routes mailgun.js calls in
// getMonthlySendingLimit and setMonthlySendingLimit) and the account's own
// (/v5/accounts/limit/custom/monthly, the primary, tenant 0). GET → {limit, current, period: "1m"}
// (404 without a limit), PUT ?limit=N and DELETE → {success: true}. Only the primary account
// acting for itself, as the subaccount routes: a tenant never lifts its own limit.
import type { SurfaceDeps } from "../deps.ts";
import { json } from "../errors.ts";
import { readForm, routeGroup } from "./form.ts";
import { invalid, notFound } from "../../core/errors.ts";
import { PRIMARY_MANAGE as manage, PRIMARY_READ as read } from "../../core/permissions.ts";
import { PRIMARY_TENANT } from "../../core/tenants.ts";
import { subaccountOf } from "./subaccounts.ts";

type Deps = Pick<SurfaceDeps, "tenants" | "tenantQuota">;

const SUBACCOUNT = "/v5/accounts/subaccounts/:id/limit/custom/monthly";
const ACCOUNT = "/v5/accounts/limit/custom/monthly";

export function subaccountLimitRoutes(deps: Deps) {
  const get = async (tenant: number) => {
    // Without a limit there is nothing to show (and no month's messages to count).
    if ((await deps.tenants.require(tenant)).monthlyLimit === undefined) throw notFound("No custom sending limit is set");
    const usage = await deps.tenantQuota.usage(tenant);
    return json(200, { limit: usage.limit!, current: usage.used, period: "1m" });
  };
  const put = async (tenant: number, request: Request) => {
    const text = (await readForm(request)).get("limit")?.trim() ?? "";
    if (!/^\d{1,15}$/.test(text)) throw invalid("limit must be a whole number of messages", "limit");
    await deps.tenantQuota.setLimit(tenant, Number(text));
    return json(200, { success: true });
  };
  const remove = async (tenant: number) => {
    await deps.tenantQuota.setLimit(tenant, null);
    return json(200, { success: true });
  };
  return routeGroup()
    .get(SUBACCOUNT, async ({ params }) => get((await subaccountOf(deps, params.id)).id), { permission: read })
    .put(SUBACCOUNT, async ({ params, request }) => put((await subaccountOf(deps, params.id)).id, request), { permission: manage })
    .delete(SUBACCOUNT, async ({ params }) => remove((await subaccountOf(deps, params.id)).id), { permission: manage })
    .get(ACCOUNT, () => get(PRIMARY_TENANT), { permission: read })
    .put(ACCOUNT, ({ request }) => put(PRIMARY_TENANT, request), { permission: manage })
    .delete(ACCOUNT, () => remove(PRIMARY_TENANT), { permission: manage });
}

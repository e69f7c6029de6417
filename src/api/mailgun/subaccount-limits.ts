// Mailgun's custom monthly sending limit of a subaccount (/v5/accounts/subaccounts/{id}/limit/custom/monthly,
// the routes mailgun.js calls in getMonthlySendingLimit and setMonthlySendingLimit) over core/tenant-quota.ts:
// GET → {limit, current, period: "1m"} (404 without a limit), PUT ?limit=N and DELETE → {success: true}.
// Only the primary account acting for itself, as the subaccount routes.
import type { SurfaceDeps } from "../deps.ts";
import { json } from "../errors.ts";
import { readForm, routeGroup } from "./form.ts";
import { invalid, notFound } from "../../core/errors.ts";
import type { Permission } from "../../core/permissions.ts";

type Deps = Pick<SurfaceDeps, "tenants" | "tenantQuota">;

const PATH = "/v5/accounts/subaccounts/:id/limit/custom/monthly";

/** A subaccount id (a tenant other than the primary); Mailgun's 404 otherwise. */
async function subaccount(deps: Deps, id: string): Promise<number> {
  const t = /^\d{1,9}$/.test(id) && Number(id) > 0 ? await deps.tenants.get(Number(id)) : null;
  if (!t) throw notFound("Subaccount not found");
  return t.id;
}

export function subaccountLimitRoutes(deps: Deps) {
  const read: Permission = { right: "account.read", keys: "account", primary: true };
  const manage: Permission = { right: "account.manage", keys: "account", primary: true };
  return routeGroup()
    .get(PATH, async ({ params }) => {
      const usage = await deps.tenantQuota.usage(await subaccount(deps, params.id));
      if (usage.limit === null) throw notFound("No custom sending limit is set for this subaccount");
      return json(200, { limit: usage.limit, current: usage.used, period: "1m" });
    }, { permission: read })
    .put(PATH, async ({ params, request }) => {
      const id = await subaccount(deps, params.id);
      const text = (await readForm(request)).get("limit")?.trim() ?? "";
      if (!/^\d{1,15}$/.test(text)) throw invalid("limit must be a whole number of messages", "limit");
      await deps.tenantQuota.setLimit(id, Number(text));
      return json(200, { success: true });
    }, { permission: manage })
    .delete(PATH, async ({ params }) => {
      await deps.tenantQuota.setLimit(await subaccount(deps, params.id), null);
      return json(200, { success: true });
    }, { permission: manage });
}

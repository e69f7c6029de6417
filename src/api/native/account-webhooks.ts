// Account-wide webhooks of the tenant a key acts for (contract §14: a tenant owns its webhooks):
// where account notices go, e.g. a blocklist listing an egress address (ip_listed, ip_delisted) or a
// domain (domain_listed, domain_delisted; docs/events.md). The same form as a domain's webhooks:
// `id` (the type) and one to three `url`s, each checked first. The egress types are the operator's.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import { permissions } from "../permission.ts";
import { accountTenant } from "../../core/permissions.ts";
import { principalOf } from "../context.ts";
import { readForm, textOf, textsOf } from "./model.ts";
import { checkAccountWebhookType, createAccountWebhook, deleteAccountWebhook, egressType, listAccountWebhooks } from "./webhook-targets.ts";

type Deps = Pick<SurfaceDeps, "webhooks" | "outbound">;
const MANAGE = { permission: { right: "webhooks.manage", keys: "account" } } as const;
const READ = { permission: { right: "webhooks.read", keys: "account" } } as const;

/** The tenant whose webhooks a request reaches, and the notice type it names (an egress type: the operator's only). */
function scoped(request: Request, type: string): { tenant: number; type: string } {
  const p = principalOf(request);
  return { tenant: accountTenant(p), type: egressType(p, type) };
}

export function accountWebhookRoutes(deps: Deps) {
  const hooks = { webhooks: deps.webhooks, outbound: deps.outbound };
  return new Elysia({ name: "native-account-webhooks" }).use(permissions)
    .post("/webhooks", async ({ request }) => {
      const fields = await readForm(request);
      const { tenant, type } = scoped(request, checkAccountWebhookType(textOf(fields, "id")));
      const urls = await createAccountWebhook(hooks, tenant, type, textsOf(fields, "url"));
      return { message: "Webhook has been created", webhook: { urls } };
    }, { parse: "none", ...MANAGE })
    // The key the acting tenant's account-wide webhooks are signed with (the installation's for the primary's own keys).
    .get("/webhooks/signing-key", async ({ request }) => ({ signing_key: await deps.outbound.signingKey(null, accountTenant(principalOf(request))) }), READ)
    .get("/webhooks", async ({ request }) => ({ webhooks: await listAccountWebhooks(hooks, accountTenant(principalOf(request))) }), READ)
    .delete("/webhooks/:type", async ({ request, params }) => {
      const { tenant, type } = scoped(request, checkAccountWebhookType(params.type));
      const urls = await deleteAccountWebhook(hooks, tenant, type);
      return { message: "Webhook has been deleted", webhook: { urls } };
    }, MANAGE);
}

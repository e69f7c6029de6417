// Account-wide webhooks (the primary's account keys acting for themselves): where account notices go, e.g. a blocklist listing an
// egress address (ip_listed, ip_delisted, domain_listed, domain_delisted; docs/events.md). The same
// form as a domain's webhooks: `id` (the type) and one to three `url`s, each checked first.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import { permissions } from "../permission.ts";
import { primaryOnly } from "../../core/permissions.ts";
import { readForm, textOf, textsOf } from "./model.ts";
import { checkAccountWebhookType, createAccountWebhook, deleteAccountWebhook, listAccountWebhooks } from "./webhook-targets.ts";

type Deps = Pick<SurfaceDeps, "webhooks" | "outbound">;
// Notices are the installation's (every egress address, every tenant's domains): the primary acting for itself.
const MANAGE = { permission: primaryOnly("webhooks.manage") } as const;
const READ = { permission: primaryOnly("webhooks.read") } as const;

export function accountWebhookRoutes(deps: Deps) {
  const hooks = { webhooks: deps.webhooks, outbound: deps.outbound };
  return new Elysia({ name: "native-account-webhooks" }).use(permissions)
    .post("/webhooks", async ({ request }) => {
      const fields = await readForm(request);
      const urls = await createAccountWebhook(hooks, checkAccountWebhookType(textOf(fields, "id")), textsOf(fields, "url"));
      return { message: "Webhook has been created", webhook: { urls } };
    }, { parse: "none", ...MANAGE })
    .get("/webhooks", async () => ({ webhooks: await listAccountWebhooks(hooks) }), READ)
    .delete("/webhooks/:type", async ({ params }) => {
      const urls = await deleteAccountWebhook(hooks, checkAccountWebhookType(params.type));
      return { message: "Webhook has been deleted", webhook: { urls } };
    }, MANAGE);
}

// Domain webhooks: create (every URL checked with a signed sample first), delete a type, the
// signing key, and a type's sample payload. Targets are the Mailgun-format ones (webhook-targets.ts).
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import { permissions } from "../permission.ts";
import { readForm, textOf, textsOf } from "./model.ts";
import { visibleDomain } from "./policy.ts";
import { checkWebhookType, createDomainWebhook, deleteDomainWebhook, egressType } from "./webhook-targets.ts";
import { FORMAT } from "../../webhooks/registry.ts";
import { principalOf } from "../context.ts";

type Deps = Pick<SurfaceDeps, "domains" | "webhooks" | "outbound">;
// Form bodies are read with request.formData() so repeated fields keep their order.
const FORM = { parse: "none" } as const;
const MANAGE = { permission: { right: "webhooks.manage", domain: "domain" } } as const;
const READ = { permission: { right: "webhooks.read", domain: "domain" } } as const;

export function webhookRoutes(deps: Deps) {
  const hooks = { webhooks: deps.webhooks, outbound: deps.outbound };
  return new Elysia({ name: "native-webhooks" }).use(permissions)
    .post("/domains/:domain/webhooks", async ({ request, params }) => {
      const { domain } = await visibleDomain(request, deps.domains, params.domain);
      const fields = await readForm(request);
      const urls = await createDomainWebhook(hooks, domain, egressType(principalOf(request), checkWebhookType(textOf(fields, "id"))), textsOf(fields, "url"));
      return { message: "Webhook has been created", webhook: { urls } };
    }, { ...FORM, ...MANAGE })
    .delete("/domains/:domain/webhooks/:type", async ({ request, params }) => {
      const { domain } = await visibleDomain(request, deps.domains, params.domain);
      const urls = await deleteDomainWebhook(hooks, domain, checkWebhookType(params.type));
      return { message: "Webhook has been deleted", webhook: { urls } };
    }, MANAGE)
    // The key this domain's webhooks (and samples, callback URLs, bot pushes) are signed with.
    .get("/domains/:domain/webhooks/signing-key", async ({ request, params }) => {
      const { domain } = await visibleDomain(request, deps.domains, params.domain);
      return { signing_key: await deps.outbound.signingKey(domain.name) };
    }, READ)
    .get("/domains/:domain/webhooks/:type/sample", async ({ request, params }) => {
      const { domain } = await visibleDomain(request, deps.domains, params.domain);
      return deps.outbound.sample(FORMAT.native, checkWebhookType(params.type), domain.name);
    }, READ);
}

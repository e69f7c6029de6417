// The native automations API (S2, every path no other surface claims). Handlers only translate:
// wire shape → core call → wire shape; every error goes through renderNativeError. Bot detection
// (`/{domain}/bot*`, `/webhook`) lives in bot.ts; the honeypot link is the tracking surface's.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import type { SurfaceHandler } from "../server.ts";
import { principalOf } from "../context.ts";
import { AppError, invalid } from "../../core/errors.ts";
import { botRoutes } from "./bot.ts";
import { parseAddressList } from "../../validation/address.ts";
import { renderNativeError } from "./errors.ts";
import { surfaceOnError } from "../errors.ts";
import { permissions } from "../permission.ts";
import { MAX_PARSE_CHARS, parseFlag, queryText, readForm, required, textOf, textsOf } from "./model.ts";
import { toAuth, toDnsRecords, toDomainDetail, toDomainItem, toParsed, toSuppression, toValidation } from "./mapper.ts";
import { visibleDomain, visibleDomains } from "./scope.ts";
import { readAttachments, readMessageForm } from "./message-form.ts";
import { toSendRequest } from "./message-request.ts";
import { countSendsInWindow } from "./usage.ts";
import { checkWebhookType, createDomainWebhook, deleteDomainWebhook, type WebhookDeps } from "./webhook-targets.ts";

// Form bodies are read with request.formData() so repeated fields and files keep their order.
const FORM = { parse: "none" } as const;

export function createNativeSurface(deps: SurfaceDeps): SurfaceHandler {
  const hooks: WebhookDeps = { webhooks: deps.webhooks, outbound: deps.outbound };
  const domainOf = (request: Request, name: string) => visibleDomain(request, deps.domains, name);

  return new Elysia({ name: "native" })
    .onError(surfaceOnError(renderNativeError))
    .use(permissions)
    .use(botRoutes(deps))
    .get("/test", ({ request }) => toAuth(principalOf(request)), { permission: { right: "any" } })
    .get("/domains", async ({ request }) => {
      const { principal, list } = await visibleDomains(request, deps.domains);
      return list.map((d) => toDomainItem(d, principal.accountId));
    }, { permission: { right: "domains.read" } })
    .get("/domains/:domain", async ({ request, params, query }) => {
      const { domain } = await domainOf(request, params.domain);
      const withDns = parseFlag(queryText(query, "dns"), "dns") ?? false;
      // With dns=true the records are looked up (read-only: the domain's state does not change).
      const records = withDns ? await deps.domains.check(domain.name) : await deps.domains.records(domain.name);
      const used = await countSendsInWindow(deps.activity, domain, deps.now());
      const detail = { domain: toDomainDetail(domain, { used, hasDkimKey: records.some((r) => r.purpose === "dkim") }) };
      return withDns ? { ...detail, ...toDnsRecords(records) } : detail;
    }, { permission: { right: "domains.read", domain: "domain" } })
    .post("/domains/:domain/webhooks", async ({ request, params }) => {
      const { domain } = await domainOf(request, params.domain);
      const fields = await readForm(request);
      const urls = await createDomainWebhook(hooks, domain, checkWebhookType(textOf(fields, "id")), textsOf(fields, "url"));
      return { message: "Webhook has been created", webhook: { urls } };
    }, { ...FORM, permission: { right: "webhooks.manage", domain: "domain" } })
    .delete("/domains/:domain/webhooks/:type", async ({ request, params }) => {
      const { domain } = await domainOf(request, params.domain);
      const urls = await deleteDomainWebhook(hooks, domain, checkWebhookType(params.type));
      return { message: "Webhook has been deleted", webhook: { urls } };
    }, { permission: { right: "webhooks.manage", domain: "domain" } })
    // The key this domain's webhooks (and samples, callback URLs, bot pushes) are signed with.
    .get("/domains/:domain/webhooks/signing-key", async ({ request, params }) => {
      const { domain } = await domainOf(request, params.domain);
      return { signing_key: await deps.outbound.signingKey(domain.name) };
    }, { permission: { right: "webhooks.read", domain: "domain" } })
    .get("/domains/:domain/webhooks/:type/sample", async ({ request, params }) => {
      const { domain } = await domainOf(request, params.domain);
      return deps.outbound.sample("native", checkWebhookType(params.type), domain.name);
    }, { permission: { right: "webhooks.read", domain: "domain" } })
    .get("/address/parse", ({ request, query }) => {
      principalOf(request);
      const addresses = required(queryText(query, "addresses"), "addresses");
      if (addresses.length > MAX_PARSE_CHARS) throw invalid(`addresses is limited to ${MAX_PARSE_CHARS} characters`, "addresses");
      return toParsed(parseAddressList(addresses));
    }, { permission: { right: "any" } })
    .post("/:domain/messages", async ({ request, params }) => {
      const { principal, domain } = await domainOf(request, params.domain);
      const fields = await readForm(request);
      const form = readMessageForm(fields, domain.name);
      const req = await toSendRequest(form, domain.name, await readAttachments(fields), deps.templateService.forDomain(domain.id, "mailgun"));
      const result = await deps.sender.send(principal, req);
      return { id: result.messages[0]!.messageIdHeader, message: "Queued. Thank you." };
    }, { ...FORM, permission: { right: "mail.send", domain: "domain" } })
    .post("/:domain/suppress", async ({ request, params }) => {
      const { domain } = await domainOf(request, params.domain);
      const fields = await readForm(request);
      const { type, list, entry } = toSuppression({ address: textOf(fields, "address"), error: textOf(fields, "error"), type: textOf(fields, "type") });
      await deps.suppressions.add(domain.name, list, [entry]);
      return { message: `Address has been added to the ${list} table`, address: entry.address, type };
    }, { ...FORM, permission: { right: "suppressions.manage", domain: "domain" } })
    .get("/:domain/validate", async ({ request, params, query }) => {
      const { domain } = await domainOf(request, params.domain);
      if (!domain.validation) throw new AppError("payment_required", `Email validation is not enabled for domain ${domain.name}`);
      return toValidation(await deps.validator.validate(required(queryText(query, "address"), "address"), { domain: domain.name }));
    }, { permission: { right: "validation.use", domain: "domain" } });
}

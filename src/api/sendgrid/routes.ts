// The SendGrid v3 surface (contract §4): POST /v3/mail/send and POST /v3/validations/email, for
// domain keys only. Handlers only translate; the steps of mail/send live in mail-send.ts and every
// error goes through renderSendgridError. Bodies are read by us (parse: "none") to bound their size.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import type { SurfaceHandler } from "../server.ts";
import { contextOf, principalOf } from "../context.ts";
import { json } from "../errors.ts";
import { AppError, invalid } from "../../core/errors.ts";
import { renderSendgridError } from "./errors.ts";
import { surfaceOnError } from "../errors.ts";
import { permissions } from "../permission.ts";
import { readJsonBody } from "./body.ts";
import { isObject } from "./fields.ts";
import { createMailSend, requireDomainKey } from "./mail-send.ts";
import { toValidationBody } from "./mapper.ts";
import { MSG } from "./model.ts";
import { eventWebhookRoutes } from "./event-webhook.ts";
import { suppressionRoutes } from "./suppressions.ts";
import { asmGroupRoutes } from "./asm-groups.ts";
import { asmSuppressionRoutes } from "./asm-suppressions.ts";
import { scheduledSendRoutes } from "./scheduled-sends.ts";
import { statsRoutes } from "./stats.ts";
import { parseSettingRoutes } from "./parse-settings.ts";
import { templateRoutes, templateVersionRoutes } from "./templates.ts";

const MAX_VALIDATION_BODY_BYTES = 64 * 1024;

type SendgridDeps = Pick<SurfaceDeps, "config" | "sender" | "validator" | "suppressions" | "now" | "templateService" | "webhooks" | "outbound" | "eventWebhookPublicKey" | "inboundRules" | "domains" | "activity" | "unsubscribeGroups" | "sendBatches">;

// SendGrid's API takes domain keys only (contract §4).
const SEND = { right: "mail.send", keys: "domain" } as const;
const ANY = { right: "any" } as const;

const methodNotAllowed = () => json(405, { errors: [{ message: "method not allowed", field: null, help: null }] });

export function createSendgridSurface(deps: SendgridDeps): SurfaceHandler {
  const mailSend = createMailSend({ sender: deps.sender, templates: deps.templateService, maxMessageBytes: deps.config.smtp.max_message_size, now: deps.now });

  return new Elysia({ name: "sendgrid" })
    .onError(surfaceOnError(renderSendgridError))
    .use(permissions)
    .use(eventWebhookRoutes(deps))
    .use(suppressionRoutes(deps))
    .use(asmGroupRoutes(deps))
    .use(asmSuppressionRoutes(deps))
    .use(scheduledSendRoutes(deps))
    .use(statsRoutes(deps))
    .use(parseSettingRoutes(deps))
    .use(templateRoutes(deps))
    .use(templateVersionRoutes(deps))
    .post("/v3/mail/send", ({ request }) => mailSend(principalOf(request), request), { parse: "none", permission: SEND })
    // SendGrid answers other methods on its endpoints with 405, not 404.
    .get("/v3/mail/send", methodNotAllowed, { permission: ANY }).put("/v3/mail/send", methodNotAllowed, { permission: ANY })
    .delete("/v3/mail/send", methodNotAllowed, { permission: ANY }).patch("/v3/mail/send", methodNotAllowed, { permission: ANY })
    .get("/v3/validations/email", methodNotAllowed, { permission: ANY })
    .post("/v3/validations/email", async ({ request }) => {
      const domain = requireDomainKey(principalOf(request));
      if (!domain.validation) throw new AppError("forbidden", `${MSG.accessForbidden}: email validation is not enabled for ${domain.name}`);
      const body = await readJsonBody(request, MAX_VALIDATION_BODY_BYTES);
      const { email, source } = isObject(body) ? body : {};
      if (typeof email !== "string" || !email.trim()) throw invalid(MSG.validationEmail, "email");
      const result = await deps.validator.validate(email, { domain: domain.name });
      const bounced = result.checks.is_valid_syntax && (await deps.suppressions.get(domain.name, "bounces", result.email)) !== null;
      return json(200, toValidationBody(result, { ip: contextOf(request).ip, source: typeof source === "string" ? source : undefined, hasKnownBounce: bounced }));
    }, { parse: "none", permission: { right: "validation.use", keys: "domain" } });
}

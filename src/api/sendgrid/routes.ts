// The SendGrid v3 surface (contract §4): mounts one module per resource (mail/send, validation,
// event webhook, suppressions, ASM groups, stats, inbound parse, templates). SendGrid takes domain
// keys only (policy.ts); every error goes through renderSendgridError (errors.ts).
import { Elysia } from "elysia";
import { activityRoutes } from "./activity.ts";
import type { SurfaceDeps } from "../deps.ts";
import type { SurfaceHandler } from "../server.ts";
import { renderSendgridError } from "./errors.ts";
import { surfaceOnError } from "../errors.ts";
import { permissions } from "../permission.ts";
import { eventWebhookRoutes } from "./event-webhook.ts";
import { suppressionRoutes } from "./suppressions.ts";
import { asmGroupRoutes } from "./asm-groups.ts";
import { asmSuppressionRoutes } from "./asm-suppressions.ts";
import { scheduledSendRoutes } from "./scheduled-sends.ts";
import { statsRoutes } from "./stats.ts";
import { parseSettingRoutes } from "./parse-settings.ts";
import { templateRoutes, templateVersionRoutes } from "./templates.ts";
import { mailRoutes } from "./mail.ts";
import { validationRoutes } from "./validation.ts";
import { ipRoutes } from "./ips.ts";
import { alertRoutes } from "./alerts.ts";
import { linkBrandingRoutes } from "./link-branding.ts";
import { subuserRoutes } from "./subusers.ts";

type SendgridDeps = Pick<SurfaceDeps, "config" | "sender" | "validator" | "suppressions" | "now" | "templateService" | "webhooks" | "outbound" | "eventWebhookPublicKey" | "inboundRules" | "domains" | "activity" | "unsubscribeGroups" | "sendBatches" | "egress" | "alerts" | "trackingHosts" | "tenants">;

export function createSendgridSurface(deps: SendgridDeps): SurfaceHandler {
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
    .use(mailRoutes(deps))
    .use(validationRoutes(deps))
    .use(ipRoutes(deps))
    .use(alertRoutes(deps))
    .use(linkBrandingRoutes(deps))
    .use(activityRoutes(deps))
    .use(subuserRoutes(deps));
}

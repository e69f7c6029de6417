// The Mailgun surface's routes (contract §4), one group per noun: messages, domains (with their
// credentials and tracking), webhooks, suppressions, stats/events and address validation.
// Handlers only translate: wire shape → core call → wire shape; every error goes through
// renderMailgunError (registered first: Elysia applies onError only to routes added after it).
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import type { SurfaceHandler } from "../server.ts";
import { renderMailgunError } from "./errors.ts";
import { surfaceOnError } from "../errors.ts";
import { messageRoutes } from "./messages.ts";
import { templateRoutes, templateVersionRoutes } from "./templates.ts";
import { listRoutes, memberRoutes } from "./lists.ts";
import { domainRoutes } from "./domains.ts";
import { domainSettingsRoutes } from "./domain-settings.ts";
import { webhookRoutes } from "./webhooks.ts";
import { suppressionRoutes } from "./suppressions.ts";
import { activityRoutes } from "./activity.ts";
import { validationRoutes } from "./validation.ts";
import { inboundRoutes } from "./inbound-routes.ts";
import { tagRoutes } from "./tags.ts";
import { ipRoutes } from "./ips.ts";
import { x509Routes } from "./x509.ts";
import { dkimKeyRoutes } from "./dkim-keys.ts";
import { subaccountRoutes } from "./subaccounts.ts";
import { subaccountLimitRoutes } from "./subaccount-limits.ts";

export function createMailgunSurface(deps: SurfaceDeps): SurfaceHandler {
  return new Elysia({ name: "mailgun" })
    .onError(surfaceOnError(renderMailgunError))
    .use(messageRoutes(deps))
    .use(templateRoutes(deps))
    .use(templateVersionRoutes(deps))
    .use(listRoutes(deps))
    .use(memberRoutes(deps))
    .use(domainRoutes(deps))
    .use(domainSettingsRoutes(deps))
    .use(webhookRoutes(deps))
    .use(suppressionRoutes(deps))
    .use(activityRoutes(deps))
    .use(tagRoutes(deps))
    .use(validationRoutes(deps))
    .use(inboundRoutes(deps))
    .use(ipRoutes(deps))
    .use(x509Routes(deps))
    .use(dkimKeyRoutes(deps))
    .use(subaccountRoutes(deps))
    .use(subaccountLimitRoutes(deps));
}

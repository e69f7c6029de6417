// The SparkPost v1 surface (contract §4): mounts each resource's routes under /api/v1 (and the
// spec's /api/v1/{domain}/… forms). Handlers only translate; who may do what is policy.ts, every
// error goes through renderSparkpostError (errors.ts).
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import type { SurfaceHandler } from "../server.ts";
import { renderSparkpostError } from "./errors.ts";
import { surfaceOnError } from "../errors.ts";
import { permissions } from "../permission.ts";
import { messageEventRoutes } from "./message-events.ts";
import { metricsRoutes } from "./metrics.ts";
import { metricListRoutes } from "./metrics-lists.ts";
import { transmissionRoutes } from "./transmissions.ts";
import { sendingDomainRoutes } from "./sending-domains.ts";
import { apiKeyRoutes } from "./api-keys.ts";
import { webhookRoutes } from "./webhooks.ts";
import { suppressionRoutes } from "./suppression-list.ts";
import { accountRoutes } from "./account.ts";
import { recipientValidationRoutes } from "./recipient-validation.ts";
import { inboundRoutes } from "./inbound.ts";
import { templateRoutes } from "./templates.ts";
import { recipientListRoutes } from "./recipient-lists.ts";
import { ipPoolRoutes } from "./ip-pools.ts";
import { alertRoutes } from "./alerts.ts";
import { trackingDomainRoutes } from "./tracking-domains.ts";
import { subaccountRoutes } from "./subaccounts.ts";

export function createSparkpostSurface(deps: SurfaceDeps): SurfaceHandler {
  return new Elysia({ name: "sparkpost" })
    .onError(surfaceOnError(renderSparkpostError))
    .use(permissions)
    .group("/api/v1", (app) => app
      .use(transmissionRoutes(deps))
      .use(sendingDomainRoutes(deps))
      .use(templateRoutes(deps))
      .use(recipientListRoutes(deps))
      .use(apiKeyRoutes(deps, ""))
      .use(apiKeyRoutes(deps, "/:domain"))
      .use(webhookRoutes(deps, ""))
      .use(webhookRoutes(deps, "/:domain"))
      .use(suppressionRoutes(deps, ""))
      .use(suppressionRoutes(deps, "/:domain"))
      .use(inboundRoutes(deps))
      .use(messageEventRoutes(deps))
      .use(metricsRoutes(deps))
      .use(metricListRoutes(deps))
      .use(recipientValidationRoutes(deps))
      .use(accountRoutes(deps))
      .use(ipPoolRoutes(deps))
      .use(alertRoutes(deps))
      .use(trackingDomainRoutes(deps))
      .use(subaccountRoutes(deps)));
}

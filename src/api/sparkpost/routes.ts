// The SparkPost v1 surface (contract §4): mounts each resource's routes under /api/v1 (and the
// spec's /api/v1/{domain}/… forms), plus account and recipient validation. Handlers only
// translate; every error goes through renderSparkpostError.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import type { SurfaceHandler } from "../server.ts";
import { json } from "../errors.ts";
import { renderSparkpostError } from "./errors.ts";
import { surfaceOnError } from "../errors.ts";
import { need } from "./grants.ts";
import { permissions } from "../permission.ts";
import { messageEventRoutes } from "./message-events.ts";
import { metricsRoutes } from "./metrics.ts";
import { metricListRoutes } from "./metrics-lists.ts";
import { principalOf } from "../context.ts";
import { readQuery } from "./query.ts";
import { transmissionRoutes } from "./transmissions.ts";
import { sendingDomainRoutes } from "./sending-domains.ts";
import { apiKeyRoutes } from "./api-keys.ts";
import { webhookRoutes } from "./webhooks.ts";
import { suppressionRoutes } from "./suppression-list.ts";
import { accountOf, validationOf } from "./account.ts";
import { inboundRoutes } from "./inbound.ts";
import { templateRoutes } from "./templates.ts";
import { recipientListRoutes } from "./recipient-lists.ts";

const VALIDATE = need("validation.use");

export function createSparkpostSurface(deps: SurfaceDeps): SurfaceHandler {
  const validate = async ({ request, params }: { request: Request; params: { address: string } }) => {
    const principal = principalOf(request);
    return json(200, { results: await validationOf(deps, principal, params.address) });
  };
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
      .get("/recipient-validation/single/:address", validate, { permission: VALIDATE })
      .post("/recipient-validation/single/:address", validate, { permission: VALIDATE })
      .get("/account", async ({ request }) => {
        const principal = principalOf(request);
        return json(200, { results: await accountOf(deps, principal, readQuery(request).str("include") === "usage") });
      }, { permission: need("account.read") }));
}

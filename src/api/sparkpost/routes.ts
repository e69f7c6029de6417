// The SparkPost v1 surface (contract §4): mounts each resource's routes under /api/v1 (and the
// spec's /api/v1/{domain}/… forms), plus account and recipient validation. Handlers only
// translate; every error goes through renderSparkpostError.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import type { SurfaceHandler } from "../server.ts";
import { json } from "../errors.ts";
import { renderSparkpostError } from "./errors.ts";
import { surfaceOnError } from "../errors.ts";
import { authorize } from "./grants.ts";
import { readQuery } from "./query.ts";
import { transmissionRoutes } from "./transmissions.ts";
import { sendingDomainRoutes } from "./sending-domains.ts";
import { apiKeyRoutes } from "./api-keys.ts";
import { webhookRoutes } from "./webhooks.ts";
import { suppressionRoutes } from "./suppression-list.ts";
import { accountOf, validationOf } from "./account.ts";

export function createSparkpostSurface(deps: SurfaceDeps): SurfaceHandler {
  const validate = async ({ request, params }: { request: Request; params: { address: string } }) => {
    const principal = authorize(request, "validation", "read");
    return json(200, { results: await validationOf(deps, principal, params.address) });
  };
  return new Elysia({ name: "sparkpost" })
    .onError(surfaceOnError(renderSparkpostError))
    .group("/api/v1", (app) => app
      .use(transmissionRoutes(deps))
      .use(sendingDomainRoutes(deps))
      .use(apiKeyRoutes(deps, ""))
      .use(apiKeyRoutes(deps, "/:domain"))
      .use(webhookRoutes(deps, ""))
      .use(webhookRoutes(deps, "/:domain"))
      .use(suppressionRoutes(deps, ""))
      .use(suppressionRoutes(deps, "/:domain"))
      .get("/recipient-validation/single/:address", validate)
      .post("/recipient-validation/single/:address", validate)
      .get("/account", async ({ request }) => {
        const principal = authorize(request, "account");
        return json(200, { results: await accountOf(deps, principal, readQuery(request).str("include") === "usage") });
      }));
}

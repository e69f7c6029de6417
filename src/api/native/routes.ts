// The native automations API (S2, every path no other surface claims): mounts one module per
// resource. Each handler reads the request, calls the core and writes the answer; who may see a
// domain is policy.ts, every error is rendered by errors.ts. The honeypot link is the tracking surface's.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import type { SurfaceHandler } from "../server.ts";
import { surfaceOnError } from "../errors.ts";
import { permissions } from "../permission.ts";
import { renderNativeError } from "./errors.ts";
import { keyRoutes } from "./key.ts";
import { botRoutes } from "./bot.ts";
import { domainRoutes } from "./domains.ts";
import { webhookRoutes } from "./webhooks.ts";
import { addressRoutes } from "./addresses.ts";
import { messageRoutes } from "./messages.ts";
import { suppressionRoutes } from "./suppressions.ts";
import { validationRoutes } from "./validation.ts";
import { reportRoutes } from "./reports.ts";
import { alertRoutes } from "./alerts.ts";
import { auditRoutes } from "./audit.ts";
import { doctorRoutes } from "./doctor.ts";
import { accountWebhookRoutes } from "./account-webhooks.ts";
import { keysRoutes } from "./keys.ts";

export function createNativeSurface(deps: SurfaceDeps): SurfaceHandler {
  return new Elysia({ name: "native" })
    .onError(surfaceOnError(renderNativeError))
    .use(permissions)
    .use(botRoutes(deps))
    .use(keyRoutes())
    .use(domainRoutes(deps))
    .use(webhookRoutes(deps))
    .use(addressRoutes())
    .use(messageRoutes(deps))
    .use(suppressionRoutes(deps))
    .use(validationRoutes(deps))
    .use(reportRoutes(deps))
    .use(alertRoutes(deps))
    .use(auditRoutes(deps))
    .use(doctorRoutes(deps))
    .use(accountWebhookRoutes(deps))
    .use(keysRoutes(deps));
}

// The web console (contract §7): the page and its scripts under /ui, and a JSON API under /ui/api
// that a session cookie authenticates. Handlers read, call the same core services as the API
// surfaces, and answer; sign-in, sessions and CSRF live in session.ts, permissions in policy.ts.
import { Elysia } from "elysia";
import type { SurfaceHandler } from "../server.ts";
import { surfaceOnError } from "../errors.ts";
import { notFound } from "../../core/errors.ts";
import type { ConsoleDeps } from "./deps.ts";
import { renderConsoleError } from "./errors.ts";
import { asset } from "./assets.ts";
import { createSessionGate } from "./session.ts";
import { domainRoutes } from "./domains.ts";
import { keyRoutes } from "./keys.ts";
import { webhookRoutes } from "./webhooks.ts";
import { suppressionRoutes } from "./suppressions.ts";
import { messageRoutes } from "./messages.ts";
import { statsRoutes } from "./stats.ts";
import { queueRoutes } from "./queue.ts";
import { reportRoutes } from "./reports.ts";
import { tlsRoutes } from "./tls.ts";
import { alertRoutes } from "./alerts.ts";
import { auditRoutes } from "./audit.ts";
import { teamRoutes } from "./team.ts";
import { tenantRoutes } from "./tenants.ts";
import { createOidcGate } from "./oidc.ts";
import { healthRoutes } from "./health.ts";

export function createConsoleSurface(deps: ConsoleDeps): SurfaceHandler & { routes: Elysia["routes"] } {
  const gate = createSessionGate({ sessions: deps.sessions, now: deps.now, secureCookie: deps.config.server.public_url.startsWith("https:"), throttle: deps.keyThrottle,
    team: deps.team });
  const oidc = createOidcGate({ team: deps.team, sessions: deps.sessions, now: deps.now, secureCookie: deps.config.server.public_url.startsWith("https:") });
  const api = new Elysia({ name: "console" })
    .onError(surfaceOnError(renderConsoleError))
    .use(domainRoutes(deps)).use(keyRoutes(deps)).use(webhookRoutes(deps)).use(suppressionRoutes(deps))
    .use(messageRoutes(deps)).use(statsRoutes(deps)).use(queueRoutes(deps)).use(reportRoutes(deps)).use(tlsRoutes(deps))
    .use(alertRoutes(deps))
    .use(auditRoutes(deps)).use(teamRoutes(deps)).use(tenantRoutes(deps))
    .use(healthRoutes(deps));

  return {
    /** The console API's routes, each with its permission declaration (test/api/console/permission.test.ts). */
    routes: api.routes,
    async handle(req: Request): Promise<Response> {
      const path = new URL(req.url).pathname;
      if (req.method === "GET") {
        const file = asset(path);
        if (file) return file;
      }
      if (path.startsWith("/ui/oidc/")) return oidc(req, path);
      if (path === "/ui/api/session") return gate.session(req);
      if (path === "/ui/api/invitations/accept") return gate.accept(req);
      if (!path.startsWith("/ui/api/")) return renderConsoleError(notFound("not found"));
      const denied = await gate.guard(req);
      return denied ?? api.handle(req);
    },
  };
}

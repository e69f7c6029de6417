// The one HTTP listener: routes each request by the contract's prefix table to a surface,
// authenticates it with that surface's scheme, answers /healthz and /metrics itself, and turns
// every failure into the owning surface's error shape.
import type { Principal } from "../core/model.ts";
import type { Metrics } from "../metrics.ts";
import type { Logger } from "../log.ts";
import { newId } from "../core/ids.ts";
import { extractKey, tenantAsk, type Authenticate } from "./auth.ts";
import { setContext } from "./context.ts";
import { normalizePath, surfaceForPath, type Surface } from "./surfaces.ts";
import { renderSendgridError } from "./sendgrid/errors.ts";
import { renderMailgunError } from "./mailgun/errors.ts";
import { ownPagingUrl } from "./mailgun/absolute-paging.ts";
import { renderSparkpostError } from "./sparkpost/errors.ts";
import { renderNativeError } from "./native/errors.ts";
import { isUnexpected, json, renderPlain, Unexpected } from "./errors.ts";
import { badHostError, badPathError, canonicalUrl, checkBody, checkDeclaredLength, hostValid, pathDecodes } from "./request-guard.ts";
import { AppError, unauthenticated } from "../core/errors.ts";
import type { Throttle } from "../core/throttle.ts";
import type { RateLimiter } from "../core/rate-limit.ts";
import type { ZoneRouter } from "./zones/router.ts";
import { PROXIED_HEADER } from "./zones/proxy.ts";
import { buildOpenApi, type MountedRoute } from "./openapi/build.ts";
import { docsIndex, nativeOpenApi } from "./openapi/index-page.ts";
import { withScene } from "../core/actor.ts";

export interface SurfaceHandler {
  handle(req: Request): Promise<Response> | Response;
  /** What its router mounts (an Elysia app's `routes`): the OpenAPI documents list exactly these. */
  routes?: MountedRoute[];
}

type Rendered = Exclude<Surface, "system" | "tracking">;

export const ERROR_RENDERERS: Record<Rendered, (err: unknown, code?: string | number) => Response> = {
  sendgrid: renderSendgridError,
  mailgun: renderMailgunError,
  sparkpost: renderSparkpostError,
  native: renderNativeError,
};

export interface HttpDeps {
  authenticate: Authenticate;
  /** Failed API keys per client IP: after its free failures an IP's wrong keys get 429, for a growing time. */
  keyThrottle?: Throttle;
  /** Request rate limits per client IP and per API key (the vendor's 429 above them). */
  rateLimits?: { perIp: RateLimiter; perKey: RateLimiter };
  surfaces: Partial<Record<Rendered | "tracking", SurfaceHandler>>;
  /** The web console: /ui and everything under it (its own session authentication). */
  console?: SurfaceHandler;
  health: () => Promise<Record<string, unknown>>;
  metrics: Metrics;
  log: Logger;
  now: () => number;
  /** Resolves the client IP from the socket peer and X-Forwarded-For (trusted proxies only). */
  clientIp: (peer: string, headers: Headers) => string;
  /** Sends a request about a domain of a zone served elsewhere to that zone's nodes. */
  zoneRouter?: ZoneRouter;
  /** A refusal for every new request but /healthz and /metrics (the server is stopping: the surface's 503). */
  refusal?: () => AppError | null;
}

/** `https://email.{domain}/{message_id}/hclick`: the honeypot link under the domain's tracking host. */
function isHoneypotHost(req: Request, path: string): boolean {
  return /^\/[^/]+\/hclick$/.test(path) && /^email\./i.test(req.headers.get("host") ?? "");
}

/** Builds the fetch handler for Bun.serve (or for tests: `handler(new Request(...))`). */
export function createHttpHandler(deps: HttpDeps) {
  const openApiDocs: Partial<Record<"sendgrid" | "mailgun" | "sparkpost", ReturnType<typeof buildOpenApi>>> = {};
  async function dispatch(req: Request, peer: string, requestId: string): Promise<{ res: Response; surface: Surface }> {
    let url = canonicalUrl(req.url);
    url = ownPagingUrl(url, req.headers.get("host")) ?? url;
    const path = normalizePath(url.pathname);
    if (path !== url.pathname || url.href !== req.url) {
      url.pathname = path;
      req = new Request(url.href, req);
    }
    const surface = isHoneypotHost(req, path) ? "tracking" : surfaceForPath(path, req.headers);
    if (!hostValid(req.headers.get("host"))) {
      return { res: (surface === "system" || surface === "tracking" ? renderPlain : ERROR_RENDERERS[surface])(badHostError()), surface };
    }
    if (deps.console && (path === "/ui" || path.startsWith("/ui/"))) return { res: await consoleRequest(req, path, peer, requestId), surface };
    const render = surface === "system" || surface === "tracking" ? renderPlain : ERROR_RENDERERS[surface];
    try {
      if (surface === "system") return { res: await system(path), surface };
      const refused = deps.refusal?.();
      if (refused) return { res: render(refused), surface };
      const ip = deps.clientIp(peer, req.headers);
      if (surface === "tracking") {
        const routed = deps.zoneRouter ? await deps.zoneRouter.routeTracking(req, path, { principal: null, ip, requestId }) : { req };
        if ("res" in routed) return { res: routed.res, surface };
        setContext(req, { principal: null, ip, requestId, surface });
        return { res: deps.surfaces.tracking ? await deps.surfaces.tracking.handle(req) : renderPlain(undefined, "NOT_FOUND"), surface };
      }
      if (!pathDecodes(path)) return { res: render(badPathError()), surface };
      const ipWait = deps.rateLimits?.perIp.take(`ip:${ip}`) ?? 0;
      if (ipWait) return { res: tooMany(render, ipWait), surface };
      checkDeclaredLength(req.headers);
      const presented = extractKey(surface, req.headers);
      const principal: Principal | null = await deps.authenticate(presented, tenantAsk(surface, path, req.method, req.headers));
      if (!principal) return { res: render(presented ? failedKey(ip) : unauthenticated()), surface };
      const keyWait = deps.rateLimits?.perKey.take(principal.keyId) ?? 0;
      if (keyWait) return { res: tooMany(render, keyWait), surface };
      const handler = deps.surfaces[surface];
      const serveHere = async (r: Request) => {
        r = await checkBody(r, r.url);
        setContext(r, { principal, ip, requestId, surface });
        return handler ? await handler.handle(r) : render(undefined, "NOT_FOUND");
      };
      if (deps.zoneRouter) {
        const routed = await deps.zoneRouter.route(surface, req, path, { principal, ip, requestId });
        if ("res" in routed) return { res: routed.res, surface };
        if ("gather" in routed) return { res: await routed.gather(serveHere), surface };
        req = routed.req;
      }
      return { res: await serveHere(req), surface };
    } catch (err) {
      if (!isUnexpected(err)) return { res: render(err), surface };
      deps.log.error("request failed", { surface, method: req.method, path, requestId, error: String((err as Error)?.stack ?? err) });
      return { res: render(new Unexpected(requestId, err)), surface };
    }
  }

  /** The vendor's 429 with Retry-After. */
  function tooMany(render: (err: unknown) => Response, seconds: number): Response {
    const res = render(new AppError("rate_limited", "too many requests"));
    res.headers.set("retry-after", String(seconds));
    return res;
  }

  /** A wrong key: 401, or 429 once this IP has failed too often (its lockout grows with each failure). */
  function failedKey(ip: string): AppError {
    const t = deps.keyThrottle;
    if (!t) return unauthenticated();
    const wait = t.lockedFor([`ip:${ip}`]);
    t.fail([`ip:${ip}`]);
    return wait > 0 ? new AppError("rate_limited", `too many failed API keys from ${ip}; retry in ${Math.ceil(wait / 1000)} s`) : unauthenticated();
  }

  async function consoleRequest(req: Request, path: string, peer: string, requestId: string): Promise<Response> {
    const ip = deps.clientIp(peer, req.headers);
    setContext(req, { principal: null, ip, requestId, surface: "console" });
    try {
      // The session is control data: the owning zone's nodes check it as this node would.
      const routed = deps.zoneRouter ? await deps.zoneRouter.route("console", req, path, { principal: null, ip, requestId }) : { req };
      if ("res" in routed) return routed.res;
      if ("gather" in routed) {
        return await routed.gather(async (r) => {
          setContext(r, { principal: null, ip, requestId, surface: "console" });
          return deps.console!.handle(r);
        });
      }
      return await deps.console!.handle(req);
    } catch (err) {
      deps.log.error("request failed", { surface: "console", path, requestId, error: String((err as Error)?.stack ?? err) });
      return json(500, { message: "internal server error" });
    }
  }

  async function system(path: string): Promise<Response> {
    if (path === "/healthz") return json(200, await deps.health());
    if (path === "/docs") return new Response(docsIndex(), { headers: { "content-type": "text/html; charset=utf-8" } });
    if (path === "/docs/native.json" || path === "/docs/native.openapi.json") return json(200, nativeOpenApi);
    const vendor = /^\/docs\/(sendgrid|mailgun|sparkpost)\.json$/.exec(path)?.[1] as "sendgrid" | "mailgun" | "sparkpost" | undefined;
    if (vendor) return json(200, (openApiDocs[vendor] ??= buildOpenApi(vendor, deps.surfaces[vendor]?.routes ?? [], nativeOpenApi.info.version)));
    if (path === "/metrics") return new Response(await deps.metrics.render(), { headers: { "content-type": "text/plain; version=0.0.4" } });
    return json(404, { message: "not found" });
  }

  return async function handle(req: Request, peer = "127.0.0.1"): Promise<Response> {
    // A request another zone's node proxied here keeps that node's id: one id in both nodes' logs.
    const forwarded = req.headers.has(PROXIED_HEADER) ? req.headers.get("x-request-id") ?? "" : "";
    const requestId = /^[0-9a-z]{20}$/.test(forwarded) ? forwarded : newId(deps.now());
    // One audit scene per request (core/actor.ts): setContext names its actor once it is known.
    const { res, surface } = await withScene(() => dispatch(req, peer, requestId));
    // Every answer names its request, so a client can quote it and an operator find it in the log.
    if (!res.headers.has("x-request-id")) {
      try { res.headers.set("x-request-id", requestId); } catch { /* immutable headers (a static Response): leave them */ }
    }
    deps.metrics.inc("postern_http_requests_total", "HTTP requests by surface and status", { surface, status: res.status });
    return res;
  };
}

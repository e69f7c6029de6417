// The zone router: after a request is authenticated (the key works at every node: control data is
// shared), it finds the request's domain (request-domain.ts) and that domain's zone; a zone served
// by other nodes gets the request proxied there (proxy.ts), so the data never lands here. A
// request that came proxied already and still names a zone not served here is refused (502)
// instead of travelling on: two nodes whose zone urls point at each other cannot loop.
import type { Principal } from "../../core/model.ts";
import type { RemoteZoneRef, ZoneDirectory } from "../../core/zones.ts";
import type { Logger } from "../../log.ts";
import { checkBody } from "../request-guard.ts";
import { fanOut, type ServeHere } from "./fanout.ts";
import { fanoutRoute } from "./fanout-routes.ts";
import { gatewayError, type ZoneSurface } from "./errors.ts";
import { forwardToZone, isProxyFailure, PROXIED_HEADER, type ForwardOptions } from "./proxy.ts";
import { consoleDomain, keyDomain, mailgunDomain, nativeDomain, sendgridDomain, sparkpostBodyDomain, sparkpostDomain, sparkpostNeedsBody } from "./request-domain.ts";

export interface ZoneRouterDeps {
  zones: ZoneDirectory;
  /** The zone this node serves. */
  localZone: string;
  timeoutMs: number;
  log: Logger;
  /** The domain a tracking token (/t/o|c|u/<token>) was issued for, when it verifies. */
  tokenDomain?: (token: string) => string | null;
  /** The principal of a console request's session (a domain key's session belongs to its domain's zone). */
  consolePrincipal?: (req: Request) => Promise<Principal | null>;
}

export interface RouteContext {
  principal: Principal | null;
  ip: string;
  requestId: string;
}

/**
 * Either the answer of the owning zone, the request to serve here (its body read when finding the
 * domain needed it), or an account-wide listing to gather from every zone (`gather` serves this
 * node's part through `serveHere` and merges the zones' answers).
 */
export type RouteResult = { res: Response } | { req: Request } | { gather: (serveHere: ServeHere) => Promise<Response> };

export function createZoneRouter(deps: ZoneRouterDeps) {
  async function domainOf(surface: ZoneSurface, req: Request, path: string, principal: Principal | null): Promise<{ name: string | null; req: Request }> {
    switch (surface) {
      case "mailgun": return { name: mailgunDomain(path), req };
      case "sendgrid": return { name: sendgridDomain(principal), req };
      case "native": return { name: nativeDomain(path), req };
      case "console": {
        const name = consoleDomain(path, new URL(req.url).searchParams);
        // Every page of a domain key's session reads its domain's data: the whole console API goes there.
        if (name || path === "/ui/api/session" || !path.startsWith("/ui/api/") || !deps.consolePrincipal) return { name, req };
        return { name: keyDomain(await deps.consolePrincipal(req)), req };
      }
      case "sparkpost": {
        const name = sparkpostDomain(path, principal);
        if (name || !sparkpostNeedsBody(req.method, path)) return { name, req };
        // The sender is in the body: read it (bounded by checkBody) and keep the bytes for whoever serves it.
        const read = await checkBody(req, req.url);
        const body = await read.clone().json().catch(() => null);
        return { name: sparkpostBodyDomain(body), req: read };
      }
    }
  }

  async function ownerOf(name: string, principal: Principal | null): Promise<RemoteZoneRef | null> {
    // A domain key names its domain (and zone) already: no look-up.
    if (principal?.domain?.name === name) return deps.zones.remoteZone(principal.domain.zone);
    return deps.zones.remoteFor(name);
  }

  const forwardOptions = (ctx: RouteContext, zone: string): ForwardOptions => ({
    fromZone: deps.localZone, clientIp: ctx.ip, requestId: ctx.requestId, timeoutMs: deps.timeoutMs,
    onStall: (detail) => deps.log.warn("zone answer stalled mid-body; the client's response was cut", { zone, error: detail, requestId: ctx.requestId }),
  });

  return {
    /**
     * A tracking link of a message of a zone served elsewhere (one public_url for every zone) goes
     * to that zone, where the message is. A person is never shown a gateway error: when the zone
     * does not answer, a GET is served here (a click still redirects; its event is logged as lost).
     */
    async routeTracking(req: Request, path: string, ctx: RouteContext): Promise<RouteResult> {
      const token = /^\/t\/[ocu]\/([A-Za-z0-9_-]+)$/.exec(path)?.[1];
      const domain = token && deps.tokenDomain ? deps.tokenDomain(token) : null;
      const zone = domain && !req.headers.has(PROXIED_HEADER) ? await deps.zones.remoteFor(domain) : null;
      if (!zone) return { req };
      const answer = await forwardToZone(req, zone, forwardOptions(ctx, zone.zone));
      if (!isProxyFailure(answer)) return { res: answer };
      deps.log.warn("zone proxy failed for a tracking link", { domain, zone: zone.zone, error: answer.detail, requestId: ctx.requestId });
      if (req.method === "GET" || req.method === "HEAD") return { req };
      return { res: new Response("the service is unavailable; try again later", { status: 503, headers: { "retry-after": "5", "content-type": "text/plain" } }) };
    },

    async route(surface: ZoneSurface, req: Request, path: string, ctx: RouteContext): Promise<RouteResult> {
      const found = await domainOf(surface, req, path, ctx.principal);
      const from = req.headers.get(PROXIED_HEADER);
      if (!found.name) {
        // No domain named: an account-wide listing of zone data is gathered from every zone, unless
        // it came from another zone's node already (then it is this node's part only).
        const listing = from === null ? fanoutRoute(surface, req.method, path, new URL(req.url).searchParams) : null;
        if (!listing) return { req: found.req };
        return { gather: (serveHere) => fanOut(found.req, listing.merge, { surface, zones: deps.zones.remoteZones(), forward: forwardOptions(ctx, "*"), serveHere }) };
      }
      const zone = await ownerOf(found.name, ctx.principal);
      if (!zone) return { req: found.req };
      if (from !== null) {
        const message = `domain ${found.name} lives in zone ${zone.zone}, which this node (zone ${deps.localZone}) does not serve; ` +
          `the request was proxied here from zone ${from || "?"}: check that zone's [zones.${zone.zone}] url`;
        deps.log.warn("proxied request for a zone not served here", { domain: found.name, zone: zone.zone, from, requestId: ctx.requestId });
        return { res: gatewayError(surface, 502, message) };
      }
      const answer = await forwardToZone(found.req, zone, forwardOptions(ctx, zone.zone));
      if (!isProxyFailure(answer)) return { res: answer };
      deps.log.warn("zone proxy failed", { domain: found.name, zone: zone.zone, error: answer.detail, requestId: ctx.requestId });
      const message = answer.kind === "timeout"
        ? `zone ${zone.zone}, where domain ${found.name} lives, did not answer in time; try again later`
        : `zone ${zone.zone}, where domain ${found.name} lives, cannot be reached; try again later`;
      return { res: gatewayError(surface, answer.kind === "timeout" ? 504 : 503, message) };
    },
  };
}

export type ZoneRouter = ReturnType<typeof createZoneRouter>;

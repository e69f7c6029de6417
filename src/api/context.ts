// Per-request facts the dispatcher learns before a surface runs (the authenticated principal and
// the client's IP), kept beside the Request object rather than in headers a client could forge.
import type { Principal } from "../core/model.ts";
import { forbidden, unauthenticated } from "../core/errors.ts";
import { actorOf, nameActor } from "../core/actor.ts";
import { seesDomain } from "../core/permissions.ts";

export interface RequestContext {
  principal: Principal | null;
  ip: string;
  requestId: string;
  /** The surface that owns the path ("sendgrid", "mailgun", "sparkpost", "native", "console", …). */
  surface: string;
}

const contexts = new WeakMap<Request, RequestContext>();

/** Also names the request's actor for the audit log (core/actor.ts): who the dispatcher or the console authenticated. */
export function setContext(req: Request, ctx: RequestContext): void {
  contexts.set(req, ctx);
  nameActor(actorOf(ctx.principal), ctx.ip);
}

export function contextOf(req: Request): RequestContext {
  return contexts.get(req) ?? { principal: null, ip: "", requestId: "", surface: "" };
}

/** The caller's principal; throws 401 when the request carried no valid key. */
export function principalOf(req: Request): Principal {
  const p = contextOf(req).principal;
  if (!p) throw unauthenticated();
  return p;
}

/**
 * Refuses a domain key acting on another domain, and any key acting on another tenant's (contract:
 * no key usable outside its scope): the check of a domain named in a body, a query or a looked-up
 * host, as `decide` checks one named in the path.
 */
export function requireDomainScope(req: Request, domain: string): Principal {
  const p = principalOf(req);
  const name = domain.trim().toLowerCase().replace(/\.$/, "");
  if ((p.kind === "domain" && p.domain?.name !== name) || !seesDomain(p, name)) throw forbidden(`this key may not act on domain ${domain}`);
  return p;
}

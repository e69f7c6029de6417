// SendGrid link branding (/v3/whitelabel/links) over postern's tracking hosts (one per sending
// domain, docs/tracking-hosts.md): a branded link's id is its sending domain's id, `subdomain` +
// `domain` its host. Creating one sets the host of the sending domain it belongs to; deleting one
// puts that domain back on email.<domain>; validate checks it now. There is no account-wide
// default: every domain has its own, so `default` is false and asking for true is refused.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import type { TrackingHostView } from "../../core/tracking-hosts.ts";
import { invalid, notFound } from "../../core/errors.ts";
import { json } from "../errors.ts";
import { permissions } from "../permission.ts";
import { principalOf, requireDomainScope } from "../context.ts";
import { readTenant } from "../../core/permissions.ts";
import { isObject } from "../wire.ts";

type Deps = Pick<SurfaceDeps, "domains" | "trackingHosts" | "config">;

const READ = { right: "domains.read" } as const;
const MANAGE = { right: "domains.manage" } as const;
const LABELS = /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/;

export function linkBrandingRoutes(deps: Deps) {
  const target = new URL(deps.config.server.public_url).hostname;
  const split = (v: TrackingHostView) => v.host.endsWith(`.${v.domain}`)
    ? { domain: v.domain, subdomain: v.host.slice(0, -v.domain.length - 1) }
    : { domain: v.host.slice(v.host.indexOf(".") + 1), subdomain: v.host.slice(0, v.host.indexOf(".")) };
  const toLink = (v: TrackingHostView) => ({
    id: v.domainId, ...split(v), username: v.domain, user_id: 1, default: false, valid: v.state !== "pending", legacy: false,
    dns: { domain_cname: { valid: v.state !== "pending", type: "cname", host: v.host, data: target } },
  });
  /** The branded link `id` names (its sending domain's id), after checking the key may act on it. */
  async function byId(request: Request, id: string): Promise<TrackingHostView> {
    const d = /^\d+$/.test(id) ? await deps.domains.list(readTenant(principalOf(request))).then((all) => all.find((x) => x.id === Number(id))) : undefined;
    if (!d) throw notFound("resource not found");
    requireDomainScope(request, d.name);
    return deps.trackingHosts.get(d.name);
  }
  const inScope = async (request: Request) => {
    const p = principalOf(request);
    return p.kind === "domain" ? (p.domain ? [p.domain] : []) : deps.domains.list(readTenant(p));
  };

  return new Elysia({ name: "sendgrid-link-branding" }).use(permissions)
    .get("/v3/whitelabel/links", async ({ request }) => json(200, await Promise.all((await inScope(request)).map(async (d) => toLink(await deps.trackingHosts.get(d.name))))),
      { permission: READ })
    .get("/v3/whitelabel/links/default", async ({ request, query }) => {
      const name = (query as Record<string, string | undefined>).domain ?? principalOf(request).domain?.name;
      const d = name ? await deps.domains.owning(name) : null;
      if (!d) throw notFound("resource not found");
      requireDomainScope(request, d.name);
      return json(200, toLink(await deps.trackingHosts.get(d.name)));
    }, { permission: READ })
    .post("/v3/whitelabel/links", async ({ request, body }) => {
      if (!isObject(body)) throw invalid("the request body must be a JSON object");
      if (typeof body.domain !== "string" || !body.domain) throw invalid("domain is required", "domain");
      if (body.subdomain !== undefined && (typeof body.subdomain !== "string" || !LABELS.test(body.subdomain.toLowerCase()))) throw invalid("subdomain must be a host name label", "subdomain");
      if (body.default !== undefined && typeof body.default !== "boolean") throw invalid("default must be a boolean", "default");
      if (body.default === true) throw invalid("postern has no default branded link: each sending domain uses its own (email.<domain> unless set)", "default");
      const owner = await deps.domains.owning(body.domain);
      if (!owner) throw invalid(`${body.domain} is not a sending domain of this account (or under one)`, "domain");
      requireDomainScope(request, owner.name);
      const host = `${((body.subdomain as string | undefined) ?? "email").toLowerCase()}.${body.domain.toLowerCase().replace(/\.$/, "")}`;
      return json(201, toLink(await deps.trackingHosts.set(owner.name, host)));
    }, { permission: MANAGE })
    .get("/v3/whitelabel/links/:id", async ({ request, params }) => json(200, toLink(await byId(request, params.id))), { permission: READ })
    .patch("/v3/whitelabel/links/:id", async ({ request, params, body }) => {
      const v = await byId(request, params.id);
      if (!isObject(body) || typeof body.default !== "boolean") throw invalid("default must be a boolean", "default");
      if (body.default) throw invalid("postern has no default branded link: each sending domain uses its own", "default");
      return json(200, toLink(v));
    }, { permission: MANAGE })
    .delete("/v3/whitelabel/links/:id", async ({ request, params }) => {
      const v = await byId(request, params.id);
      await deps.trackingHosts.set(v.domain, "");
      return new Response(null, { status: 204 });
    }, { permission: MANAGE })
    .post("/v3/whitelabel/links/:id/validate", async ({ request, params }) => {
      const v = await deps.trackingHosts.check((await byId(request, params.id)).domain);
      const valid = v.state !== "pending";
      return json(200, { id: v.domainId, valid, validation_results: { domain_cname: { valid, reason: valid ? null : `${v.host}: ${v.note}` } } });
    }, { permission: MANAGE });
}


// /api/v1/tracking-domains: SparkPost's tracking domains over postern's tracking hosts (one per
// sending domain, docs/tracking-hosts.md). A tracking domain is listed for every sending domain in
// scope (its host: email.<domain> unless set); creating one sets it on the sending domain it is
// under; deleting one puts that domain back on email.<domain>; verify checks it now. `secure`
// says whether links are https now (they switch once its certificate is valid); postern has no
// account-wide default, so `default` is false and asking for true is refused.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import type { TrackingHostView } from "../../core/tracking-hosts.ts";
import { json } from "../errors.ts";
import { permissions } from "../permission.ts";
import { requireDomainScope } from "../context.ts";
import { isObject } from "../wire.ts";
import { badFormat, missingField, notFoundError, spError } from "./errors.ts";
import { need, scopedDomains } from "./policy.ts";
import { readQuery } from "./query.ts";

type Deps = Pick<SurfaceDeps, "domains" | "trackingHosts">;

/** SparkPost's cname_status: valid once it resolves here; invalid when it resolves elsewhere; unverified before any check. */
function cnameStatus(v: TrackingHostView): string {
  if (v.state !== "pending") return "valid";
  return v.note.startsWith("resolves to") ? "invalid" : v.note ? "pending" : "unverified";
}

export const trackingStatus = (v: TrackingHostView) => ({ verified: v.state !== "pending", cname_status: cnameStatus(v), compliance_status: "valid" });

export function toTrackingDomain(v: TrackingHostView) {
  const secure = v.state === "https" && v.linkBase.startsWith("https:");
  const port = Number(new URL(v.linkBase).port) || (secure ? 443 : 80);
  return { port: v.state === "pending" ? 80 : port, domain: v.host, secure, default: false, status: trackingStatus(v) };
}

/** The fields SparkPost takes on create and update, checked for their types; `default: true` is refused. */
function readFields(body: Record<string, unknown>) {
  if (body.secure !== undefined && typeof body.secure !== "boolean") throw badFormat("secure must be a boolean");
  if (body.default !== undefined && typeof body.default !== "boolean") throw badFormat("default must be a boolean");
  if (body.port !== undefined && !(Number.isInteger(body.port) && (body.port as number) > 0 && (body.port as number) < 65536)) throw badFormat("port must be an integer from 1 to 65535");
  if (body.default === true) throw badFormat("postern has no default tracking domain: each sending domain uses its own (email.<domain> unless set)");
}

export function trackingDomainRoutes(deps: Deps) {
  /** The tracking domain named in the path, after checking the key may act on its sending domain. */
  async function pathHost(request: Request, host: string): Promise<TrackingHostView> {
    const v = await deps.trackingHosts.byHost(host);
    if (!v) throw notFoundError(`Resource not found: ${host}`);
    requireDomainScope(request, v.domain);
    return v;
  }
  return (app: Elysia) => app.use(permissions)
    .get("/tracking-domains", async ({ request }) => {
      const q = readQuery(request);
      const views = await Promise.all((await scopedDomains(request, deps.domains, undefined, { everyZone: true })).map((d) => deps.trackingHosts.get(d.name)));
      return json(200, { results: q.str("default") === "true" ? [] : views.map(toTrackingDomain) });
    }, { permission: need("domains.read") })
    .post("/tracking-domains", async ({ request, body }) => {
      if (!isObject(body)) throw badFormat("the request body must be a JSON object");
      if (typeof body.domain !== "string" || !body.domain) throw missingField("field 'domain' is required");
      readFields(body);
      const host = body.domain.trim().toLowerCase().replace(/\.$/, "");
      if (await deps.trackingHosts.byHost(host)) throw spError(409, "1602", "resource conflict", "The tracking domain already exists.");
      const owner = await deps.domains.owning(host);
      if (!owner || owner.name === host) {
        throw badFormat(`Tracking domain '${host}' is not under a sending domain: add it under one (e.g. links.<domain>), or set tracking_domain on a sending domain`);
      }
      requireDomainScope(request, owner.name);
      await deps.trackingHosts.set(owner.name, host);
      return json(200, { results: { domain: host } });
    }, { permission: need("domains.manage") })
    .get("/tracking-domains/:domain", async ({ request, params }) => json(200, { results: toTrackingDomain(await pathHost(request, params.domain)) }),
      { permission: need("domains.read") })
    .put("/tracking-domains/:domain", async ({ request, params, body }) => {
      const v = await pathHost(request, params.domain);
      readFields(isObject(body) ? body : {});
      return json(200, { results: { domain: v.host } });
    }, { permission: need("domains.manage") })
    .delete("/tracking-domains/:domain", async ({ request, params }) => {
      const v = await pathHost(request, params.domain);
      await deps.trackingHosts.set(v.domain, "");
      return new Response(null, { status: 204 });
    }, { permission: need("domains.manage") })
    .post("/tracking-domains/:domain/verify", async ({ request, params }) => {
      const v = await pathHost(request, params.domain);
      return json(200, { results: trackingStatus(await deps.trackingHosts.check(v.domain)) });
    }, { permission: need("domains.manage") });
}

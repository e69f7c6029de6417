// Mailgun's secure tracking (/v2/x509/{domain}, {domain} being the tracking host
// `<web_prefix>.<domain>`) over postern's tracking host certificates (docs/tracking-hosts.md):
// status of the certificate served by SNI, and a request to order one now. With [tls] acme
// postern orders it by itself once the host resolves here; these calls only look and hurry.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import type { TrackingHostView } from "../../core/tracking-hosts.ts";
import { invalid, notFound } from "../../core/errors.ts";
import { json } from "../errors.ts";
import { permissions } from "../permission.ts";
import { accountOnly } from "./policy.ts";

type Deps = Pick<SurfaceDeps, "trackingHosts">;

export function x509Routes(deps: Deps) {
  async function hostOf(name: string): Promise<TrackingHostView> {
    const v = await deps.trackingHosts.byHost(name);
    if (!v) throw notFound(`${name} is not the tracking domain of a domain (<web_prefix>.<domain>)`);
    return v;
  }
  /** Generate and regenerate: refused without ACME, while the host does not resolve here, or while a certificate is valid or on its way. */
  async function order(name: string, again: boolean) {
    if (!deps.trackingHosts.canOrderCertificates()) throw invalid("certificates are ordered only with [tls] acme");
    const state = (await hostOf(name)).certificate.state;
    // The check starts the order of a host seen resolving for the first time.
    const v = await deps.trackingHosts.check((await hostOf(name)).domain);
    if (v.state === "pending") throw invalid(`invalid CNAME record: ${v.host} ${v.note}`);
    // Mailgun's 409 here (its other duplicates are 400s, errors.ts).
    if (state === "processing" || (state === "active" && !again)) return json(409, { message: `x509 key pair generation has already been initiated for ${v.host}` });
    if (state === "active") return json(409, { message: `the x509 certificate of ${v.host} is still valid` });
    // An expired or failed one is ordered again, in the background: the answer says where to look, as Mailgun's does.
    if (state !== "none") void deps.trackingHosts.renewCertificate(v.domain).catch(() => {});
    return json(202, { message: "Initiated x509 key pair generation", location: `/v2/x509/${v.host}/status` });
  }
  return new Elysia({ name: "mailgun-x509" }).use(permissions)
    .get("/v2/x509/:domain/status", async ({ params }) => {
      const v = await hostOf(params.domain);
      const c = v.certificate;
      if (c.state === "none") throw notFound(`no x509 key pair for ${v.host}: ${v.state === "pending" ? v.note : "not ordered ([tls] acme is off)"}`);
      return json(200, { status: c.state, error: c.error ?? "", certificate: c.certificate ?? "" });
    }, { permission: accountOnly("domains.read") })
    .post("/v2/x509/:domain", ({ params }) => order(params.domain, false), { permission: accountOnly("domains.manage") })
    .put("/v2/x509/:domain", ({ params }) => order(params.domain, true), { permission: accountOnly("domains.manage") });
}

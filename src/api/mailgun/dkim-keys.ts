// Mailgun's domain keys over postern's DKIM key lifecycle (core/dkim-rotation.ts, contract §13):
// GET /v1/dkim/keys (every domain's, filtered by signing_domain and selector), GET
// /v4/domains/{d}/keys, POST /v1/dkim/keys (a pending key: generated, or the given pem) and PUT
// /v4/domains/{d}/keys/{selector}/activate|deactivate (sign with it now; stop signing, retiring).
import type { SurfaceDeps } from "../deps.ts";
import type { DkimKeyView } from "../../core/dkim-rotation.ts";
import { invalid } from "../../core/errors.ts";
import { json } from "../errors.ts";
import { readForm, routeGroup } from "./form.ts";
import { accountOnly } from "./policy.ts";
import { principalOf, requireDomainScope } from "../context.ts";
import { readTenant } from "../../core/permissions.ts";

type Deps = Pick<SurfaceDeps, "dkimKeys">;

/** Mailgun's item: is_active says whether the key signs; the record is checked by `domain verify`, not here. */
const toItem = (domain: string, k: DkimKeyView) => ({
  signing_domain: domain, selector: k.selector,
  dns_record: { is_active: k.state === "active", cached: [], name: k.record.name, record_type: "TXT", valid: "unknown", value: k.record.value },
});

const MAX_LIMIT = 1000;

export function dkimKeyRoutes(deps: Deps) {
  return routeGroup()
    .get("/v1/dkim/keys", async ({ request }) => {
      const q = new URL(request.url).searchParams;
      const domain = q.get("signing_domain")?.toLowerCase();
      const selector = q.get("selector")?.toLowerCase();
      const limit = q.get("limit") ? Number(q.get("limit")) : 10;
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw invalid(`limit must be an integer from 1 to ${MAX_LIMIT}`, "limit");
      // The acting tenant's domains only (the primary's without X-Mailgun-On-Behalf-Of).
      const all = (await deps.dkimKeys.listAll(readTenant(principalOf(request)))).filter((k) => (!domain || k.domain === domain) && (!selector || k.selector === selector));
      // One page holds them all up to `limit`; the page links repeat the query (postern does not page keys further).
      const self = `${new URL(request.url).origin}/v1/dkim/keys?${q.toString()}`;
      return json(200, { items: all.slice(0, limit).map((k) => toItem(k.domain, k)), paging: { first: self, last: self, next: self, previous: self } });
    }, { permission: accountOnly("domains.read") })
    .get("/v4/domains/:domain/keys", async ({ params }) => {
      const keys = await deps.dkimKeys.list(params.domain);
      return json(200, { items: keys.map((k) => toItem(params.domain.toLowerCase(), k)) });
    }, { permission: accountOnly("domains.read") })
    .post("/v1/dkim/keys", async ({ request }) => {
      const form = await readForm(request);
      const domain = form.get("signing_domain");
      const selector = form.get("selector");
      if (!domain) throw invalid("signing_domain is required", "signing_domain");
      if (!selector) throw invalid("selector is required", "selector");
      // The domain is in the form, not the path: the permission guard has not seen it.
      requireDomainScope(request, domain);
      const bits = form.get("bits");
      if (bits && bits !== "2048") throw invalid("postern makes 2048-bit RSA keys: bits may only be 2048 (or bring a key as pem)", "bits");
      const k = await deps.dkimKeys.addKey(domain, selector, { pem: form.get("pem") || undefined });
      return json(200, toItem(domain.toLowerCase(), k));
    }, { permission: accountOnly("domains.manage") })
    .put("/v4/domains/:domain/keys/:selector/activate", async ({ params }) => {
      const k = await deps.dkimKeys.activateSelector(params.domain, params.selector);
      return json(200, { message: "domain key activated", authority: params.domain.toLowerCase(), selector: k.selector, active: true });
    }, { permission: accountOnly("domains.manage") })
    .put("/v4/domains/:domain/keys/:selector/deactivate", async ({ params }) => {
      const k = await deps.dkimKeys.deactivateSelector(params.domain, params.selector);
      return json(200, { message: "domain key deactivated", authority: params.domain.toLowerCase(), selector: k.selector, active: false });
    }, { permission: accountOnly("domains.manage") });
}

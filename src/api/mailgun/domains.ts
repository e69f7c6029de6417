// Domains as mailgun.js calls them (/v4/domains list/get/create/update/verify, DELETE
// /v3/domains/{d}) plus the /v3/domains spellings of the service spec and PATCH /v3/{d}/disable.
// Account key only (policy.ts).
import type { Domain } from "../../core/model.ts";
import { forbidden, invalid } from "../../core/errors.ts";
import { readTenant, rightsOf } from "../../core/permissions.ts";
import { MIN_PASSWORD_LENGTH } from "../../core/access.ts";
import { principalOf } from "../context.ts";
import type { SurfaceDeps } from "../deps.ts";
import { parseYesNo, readForm, routeGroup, type Form } from "./form.ts";
import { accountOnly } from "./policy.ts";
import { toDomainDetail, toMailgunDomain } from "./domain-mapper.ts";
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from "./model.ts";
import { grantRights } from "../grants.ts";
import { egressView } from "../egress-view.ts";

type Deps = Pick<SurfaceDeps, "domains" | "access" | "config" | "egress" | "trackingHosts" | "tenants">;

/** limit / skip / state / search of GET /v4/domains, applied to the full list. */
function filterDomains(all: Domain[], form: Form) {
  const limit = Math.min(Math.max(Number(form.get("limit") ?? DEFAULT_PAGE_LIMIT) || DEFAULT_PAGE_LIMIT, 1), MAX_PAGE_LIMIT);
  const skip = Math.max(Number(form.get("skip") ?? 0) || 0, 0);
  const state = form.get("state");
  const search = form.get("search")?.toLowerCase();
  const hits = all.filter((d) => (!state || d.state === state) && (!search || d.name.includes(search)));
  return { total_count: hits.length, items: hits.slice(skip, skip + limit) };
}

const wildcardOf = (form: Form) => parseYesNo(form.get("wildcard"));

const LABELS = /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/;

/** web_prefix / web_scheme of a create or update form, checked: the prefix names the domain's tracking host (docs/tracking-hosts.md). */
function readWebFields(form: Form): string | undefined {
  const scheme = form.get("web_scheme");
  // https follows the host's certificate (used once it is valid); asking for either scheme is accepted.
  if (scheme !== undefined && scheme !== "http" && scheme !== "https") throw invalid("web_scheme must be http or https", "web_scheme");
  const prefix = form.get("web_prefix")?.trim().toLowerCase();
  if (prefix !== undefined && !LABELS.test(prefix)) throw invalid("web_prefix must be a host name label such as email", "web_prefix");
  return prefix;
}

export function domainRoutes(deps: Deps) {
  // The scheme of the domain's links now: https once its tracking host's certificate is valid.
  const schemeOf = async (d: Domain) => new URL((await deps.trackingHosts.get(d.name)).linkBase).protocol.replace(":", "");
  const detail = async (d: Domain, message?: string) => toDomainDetail(d, await deps.domains.records(d.name), await schemeOf(d), message);
  const setPrefix = async (d: Domain, prefix: string | undefined) => (prefix === undefined ? d : (await deps.trackingHosts.set(d.name, `${prefix}.${d.name}`), deps.domains.require(d.name)));
  // smtp_password sets an SMTP credential: a field that needs the credentials right besides the route's.
  // Checked before anything changes, so a refused password leaves no half-made domain behind.
  const requirePasswordRight = (form: Form, request: Request) => {
    const password = form.get("smtp_password");
    if (!password) return;
    if (!rightsOf(principalOf(request), grantRights).has("credentials.manage")) throw forbidden("smtp_password needs the credentials.manage permission");
    if (password.length < MIN_PASSWORD_LENGTH) throw invalid(`smtp_password must be at least ${MIN_PASSWORD_LENGTH} characters`, "smtp_password");
  };
  const setPostmasterPassword = async (name: string, form: Form) => {
    const password = form.get("smtp_password");
    if (password) await deps.access.setCredential(name, "postmaster", password);
  };

  /** pool_id: a pool the acting tenant sees (the installation's every pool for the primary); another is as unknown as none ("" clears). */
  async function checkPool(request: Request, pool: string | undefined): Promise<string | undefined> {
    if (pool && !(await egressView(deps, request)).has(pool)) throw invalid(`unknown ip pool "${pool}"`, "pool_id");
    return pool;
  }
  const group = routeGroup();
  for (const v of ["v3", "v4"]) {
    group
      .get(`/${v}/domains`, async ({ request }) => {
        const page = filterDomains(await deps.domains.list(readTenant(principalOf(request))), await readForm(request));
        return { total_count: page.total_count, items: await Promise.all(page.items.map(async (d) => toMailgunDomain(d, await schemeOf(d)))) };
      }, { permission: accountOnly("domains.read") })
      .get(`/${v}/domains/:domain`, async ({ params, request }) => {
        return detail(await deps.domains.require(params.domain));
      }, { permission: accountOnly("domains.read") })
      .post(`/${v}/domains`, async ({ request }) => {
        const form = await readForm(request);
        requirePasswordRight(form, request);
        const name = form.get("name");
        if (!name) throw invalid("name parameter is missing", "name");
        const prefix = readWebFields(form);
        // pool_id: the domain's egress pool, checked before the domain is created.
        const pool = await checkPool(request, form.get("pool_id") || undefined);
        let d = await deps.domains.add(name, { wildcard: wildcardOf(form), zone: form.get("data_location") || undefined, tenant: principalOf(request).tenant });
        if (pool) d = await deps.domains.set(d.name, { pool });
        // A host that is already another domain's is refused: no half-made domain stays behind.
        d = await setPrefix(d, prefix).catch(async (e) => { await deps.domains.remove(d.name); throw e; });
        await setPostmasterPassword(d.name, form);
        return detail(d, "Domain has been created");
      }, { permission: accountOnly("domains.manage") })
      .put(`/${v}/domains/:domain`, async ({ params, request }) => {
        const form = await readForm(request);
        requirePasswordRight(form, request);
        const prefix = readWebFields(form);
        // data_location is the zone: a domain's data never moves, so another zone is refused.
        let d = await deps.domains.set(params.domain, { wildcard: wildcardOf(form), zone: form.get("data_location") || undefined,
          pool: await checkPool(request, form.get("pool_id") ?? undefined) });
        d = await setPrefix(d, prefix);
        await setPostmasterPassword(d.name, form);
        return detail(d, "Domain has been updated");
      }, { permission: accountOnly("domains.manage") })
      .put(`/${v}/domains/:domain/verify`, async ({ params, request }) => {
        const { domain, records } = await deps.domains.verify(params.domain);
        await deps.trackingHosts.check(domain.name);
        return toDomainDetail(domain, records, await schemeOf(domain), "Domain DNS records have been updated");
      }, { permission: accountOnly("domains.manage") })
      .delete(`/${v}/domains/:domain`, async ({ params, request }) => {
        await deps.domains.remove(params.domain);
        return { message: "Domain has been deleted" };
      }, { permission: accountOnly("domains.manage") });
  }
  return group.patch("/v3/:domain/disable", async ({ params, request }) => {
    const d = await deps.domains.disable(params.domain);
    return { message: "Domain has been disabled", domain: toMailgunDomain(d, await schemeOf(d)) };
  }, { permission: accountOnly("domains.manage") });
}

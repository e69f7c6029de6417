// A domain's SMTP credentials (/v3/domains/{d}/credentials) and tracking settings
// (/v3/domains/{d}/tracking). Account key only (policy.ts).
import { invalid, notFound } from "../../core/errors.ts";
import type { SurfaceDeps } from "../deps.ts";
import { parseYesNo, readForm, routeGroup } from "./form.ts";
import { accountOnly } from "./policy.ts";
import { toCredential, toTracking, TRACKING_SETTINGS } from "./domain-mapper.ts";
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from "./model.ts";

type Deps = Pick<SurfaceDeps, "domains" | "access">;

const sameLogin = (stored: string, given: string, domain: string) =>
  stored === given.toLowerCase() || stored === `${given.toLowerCase()}@${domain.toLowerCase()}`;

export function domainSettingsRoutes(deps: Deps) {
  const requirePassword = (password: string | undefined) => {
    if (!password) throw invalid("password parameter is missing", "password");
    return password;
  };
  const requireCredential = async (domain: string, login: string) => {
    const all = await deps.access.listCredentials(domain);
    if (!all.some((c) => sameLogin(c.login, login, domain))) throw notFound(`Credentials for ${login} not found`);
  };

  return routeGroup()
    .get("/v3/domains/:domain/credentials", async ({ params, request }) => {
      const form = await readForm(request);
      const all = await deps.access.listCredentials(params.domain);
      const limit = Math.min(Number(form.get("limit") ?? DEFAULT_PAGE_LIMIT) || DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT);
      const skip = Math.max(Number(form.get("skip") ?? 0) || 0, 0);
      return { total_count: all.length, items: all.slice(skip, skip + limit).map(toCredential) };
    }, { permission: accountOnly("credentials.read") })
    .post("/v3/domains/:domain/credentials", async ({ params, request }) => {
      const form = await readForm(request);
      const login = form.get("login");
      if (!login) throw invalid("login parameter is missing", "login");
      await deps.access.setCredential(params.domain, login, requirePassword(form.get("password")));
      return { message: "Created 1 credentials pair(s)" };
    }, { permission: accountOnly("credentials.manage") })
    .put("/v3/domains/:domain/credentials/:login", async ({ params, request }) => {
      const password = requirePassword((await readForm(request)).get("password"));
      await requireCredential(params.domain, params.login);
      await deps.access.setCredential(params.domain, params.login, password);
      return { message: "Password changed" };
    }, { permission: accountOnly("credentials.manage") })
    .delete("/v3/domains/:domain/credentials/:login", async ({ params, request }) => {
      await deps.access.deleteCredential(params.domain, params.login);
      const login = params.login.includes("@") ? params.login : `${params.login}@${params.domain}`;
      return { message: "Credentials have been deleted", spec: login.toLowerCase() };
    }, { permission: accountOnly("credentials.manage") })
    .delete("/v3/domains/:domain/credentials", async ({ params, request }) => {
      const all = await deps.access.listCredentials(params.domain);
      for (const c of all) await deps.access.deleteCredential(params.domain, c.login);
      return { message: "All domain credentials have been deleted", count: all.length };
    }, { permission: accountOnly("credentials.manage") })
    .get("/v3/domains/:domain/tracking", async ({ params, request }) => {
      return toTracking(await deps.domains.require(params.domain));
    }, { permission: accountOnly("domains.read") })
    .put("/v3/domains/:domain/tracking/:section", async ({ params, request }) => {
      const section = params.section as keyof typeof TRACKING_SETTINGS;
      if (!Object.hasOwn(TRACKING_SETTINGS, section)) throw notFound(`unknown tracking section "${params.section}": use open, click or unsubscribe`);
      const active = parseYesNo((await readForm(request)).get("active"));
      if (active === undefined) throw invalid("active must be yes, no, true, false or htmlonly", "active");
      await deps.domains.set(params.domain, { [TRACKING_SETTINGS[section]]: active });
      return { message: "Domain tracking settings have been updated", [section]: { active } };
    }, { permission: accountOnly("domains.manage") });
}

// GET /domains (the domains the key may see) and GET /domains/{domain} (settings, usage of the
// sending limit, and with dns=true the records looked up now, read-only).
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import { permissions } from "../permission.ts";
import { parseFlag, queryText } from "./model.ts";
import { toDnsRecords, toDomainDetail, toDomainItem } from "./mapper.ts";
import { visibleDomain, visibleDomains } from "./policy.ts";
import { countSendsInWindow } from "./usage.ts";

type Deps = Pick<SurfaceDeps, "domains" | "activity" | "now">;

export function domainRoutes(deps: Deps) {
  return new Elysia({ name: "native-domains" }).use(permissions)
    .get("/domains", async ({ request }) => {
      const { principal, list } = await visibleDomains(request, deps.domains);
      return list.map((d) => toDomainItem(d, principal.accountId));
    }, { permission: { right: "domains.read" } })
    .get("/domains/:domain", async ({ request, params, query }) => {
      const { domain } = await visibleDomain(request, deps.domains, params.domain);
      const withDns = parseFlag(queryText(query, "dns"), "dns") ?? false;
      const records = withDns ? await deps.domains.check(domain.name) : await deps.domains.records(domain.name);
      const used = await countSendsInWindow(deps.activity, domain, deps.now());
      const detail = { domain: toDomainDetail(domain, { used, hasDkimKey: records.some((r) => r.purpose === "dkim") }) };
      return withDns ? { ...detail, ...toDnsRecords(records) } : detail;
    }, { permission: { right: "domains.read", domain: "domain" } });
}

// GET /doctor and GET /blocklists (contract §13), for account keys. Both run now: /doctor every
// check (or ?domain=D's and the machine's), /blocklists the blocklist checks, then answers the
// history with first_seen/last_seen. The scheduler's runs ([doctor] interval) feed the same history.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import { forbidden } from "../../core/errors.ts";
import { readTenant, seesEveryTenant } from "../../core/permissions.ts";
import { principalOf } from "../context.ts";
import { permissions } from "../permission.ts";
import { egressView } from "../egress-view.ts";
import { queryText } from "./model.ts";
import { visibleDomain } from "../visibility.ts";

type Deps = Pick<SurfaceDeps, "doctor" | "domains" | "egress" | "tenants">;
const ACCOUNT_READ = { permission: { right: "account.read", keys: "account" } } as const;

export function doctorRoutes(deps: Deps) {
  return new Elysia({ name: "native-doctor" }).use(permissions)
    .get("/doctor", async ({ request, query }) => {
      const domain = queryText(query, "domain");
      // Another tenant's domain is as unknown as a missing one; a run over every domain is the operator's.
      if (domain) await visibleDomain(request, deps.domains, domain);
      else if (!seesEveryTenant(principalOf(request))) throw forbidden("a tenant's key runs the doctor for one of its own domains: GET /doctor?domain=D");
      // A tenant's run looks only at the egress addresses its mail leaves from (ptr, ipv6, blocklists, its SPF).
      const view = await egressView(deps, request);
      return { checks: await deps.doctor.run({ domain: domain || undefined, seesAddress: view.seesAddress }) };
    }, ACCOUNT_READ)
    .get("/blocklists", async ({ request }) => {
      const p = principalOf(request);
      if (seesEveryTenant(p)) return { items: await deps.doctor.blocklists(true) };
      // A listed host name (a domain, its bounce or tracking host) is shown only under the caller's own domains.
      const own = (await deps.domains.list(readTenant(p))).map((d) => d.name);
      const view = await egressView(deps, request);
      return { items: await deps.doctor.blocklists(true, (host) => own.some((d) => host === d || host.endsWith(`.${d}`)), view.seesAddress) };
    }, ACCOUNT_READ);
}

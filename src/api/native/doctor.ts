// GET /doctor and GET /blocklists (contract §13), for account keys. Both run now: /doctor every
// check (or ?domain=D's and the machine's), /blocklists the blocklist checks, then answers the
// history with first_seen/last_seen. The scheduler's runs ([doctor] interval) feed the same history.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import { notFound } from "../../core/errors.ts";
import { permissions } from "../permission.ts";
import { queryText } from "./model.ts";

type Deps = Pick<SurfaceDeps, "doctor" | "domains">;
const ACCOUNT_READ = { permission: { right: "account.read", keys: "account" } } as const;

export function doctorRoutes(deps: Deps) {
  return new Elysia({ name: "native-doctor" }).use(permissions)
    .get("/doctor", async ({ query }) => {
      const domain = queryText(query, "domain");
      if (domain && !(await deps.domains.get(domain))) throw notFound(`Domain not found: ${domain}`);
      return { checks: await deps.doctor.run({ domain: domain || undefined }) };
    }, ACCOUNT_READ)
    .get("/blocklists", async () => ({ items: await deps.doctor.blocklists(true) }), ACCOUNT_READ);
}

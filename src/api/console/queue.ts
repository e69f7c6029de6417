// Console: each destination's state (waiting, in flight, concurrency, suspension, last throttle
// reply), and waiting recipients by recipient domain, with Retry (due now) and Purge (fail them). A domain
// key sees and touches only the mail its own domain sent, a tenant's caller only its tenant's domains'. core/queue-admin.ts is the port.
import { Elysia } from "elysia";
import { queueOfSenders } from "../../core/queue-admin.ts";
import { readTenant, seesEveryTenant } from "../../core/permissions.ts";
import type { ConsoleDeps } from "./deps.ts";
import { principalOf } from "../context.ts";
import { permissions } from "../permission.ts";
import { requiredField } from "./policy.ts";

/** The caller's mail: a domain key's domain, the acting tenant's domains, or every domain's for a reader of every tenant. */
async function queueOf(deps: ConsoleDeps, request: Request) {
  const p = principalOf(request);
  if (p.kind === "domain") return queueOfSenders(deps.queue, [p.domain!.name]);
  const tenant = readTenant(p);
  return queueOfSenders(deps.queue, tenant === undefined ? null : (await deps.domains.list(tenant)).map((d) => d.name));
}

export function queueRoutes(deps: ConsoleDeps) {
  return new Elysia({ prefix: "/ui/api" }).use(permissions)
    .get("/queue", async ({ request }) => (await queueOf(deps, request)).byDestination(), { permission: { right: "mail.read" } })
    // Destinations are shared by every tenant's mail (their waiting counts too): only the primary acting for itself sees their state.
    .get("/queue/destinations", async ({ request }) => (seesEveryTenant(principalOf(request)) ? deps.queue.destinations() : []),
      { permission: { right: "mail.read" } })
    .post("/queue/retry", async ({ request, body }) => {
      const destination = requiredField(body, "destination").toLowerCase();
      return { retried: await (await queueOf(deps, request)).retry(destination) };
    }, { permission: { right: "mail.send" } })
    .post("/queue/purge", async ({ request, body }) => {
      const destination = requiredField(body, "destination").toLowerCase();
      return { purged: await (await queueOf(deps, request)).purge(destination) };
    }, { permission: { right: "mail.send" } });
}

// Console: each destination's state (waiting, in flight, concurrency, suspension, last throttle
// reply), and waiting recipients by recipient domain, with Retry (due now) and Purge (fail them). A domain
// key sees and touches only the mail its own domain sent. core/queue-admin.ts is the port.
import { Elysia } from "elysia";
import type { Principal } from "../../core/model.ts";
import type { ConsoleDeps } from "./deps.ts";
import { principalOf } from "../context.ts";
import { permissions } from "../permission.ts";
import { requiredField } from "./policy.ts";

const senderOf = (p: Principal) => (p.kind === "domain" ? p.domain!.name : null);

export function queueRoutes(deps: ConsoleDeps) {
  return new Elysia({ prefix: "/ui/api" }).use(permissions)
    .get("/queue", async ({ request }) => deps.queue.byDestination(senderOf(principalOf(request))), { permission: { right: "mail.read" } })
    // Destinations are shared by every sending domain: only the account sees their state.
    .get("/queue/destinations", async ({ request }) => (senderOf(principalOf(request)) === null ? deps.queue.destinations() : []),
      { permission: { right: "mail.read" } })
    .post("/queue/retry", async ({ request, body }) => {
      const p = principalOf(request);
      return { retried: await deps.queue.retryDestination(requiredField(body, "destination").toLowerCase(), senderOf(p)) };
    }, { permission: { right: "mail.send" } })
    .post("/queue/purge", async ({ request, body }) => {
      const p = principalOf(request);
      return { purged: await deps.queue.purgeDestination(requiredField(body, "destination").toLowerCase(), senderOf(p)) };
    }, { permission: { right: "mail.send" } });
}

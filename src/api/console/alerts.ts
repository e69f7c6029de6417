// Console: the open alerts (firing or reminded, not yet resolved), shown on the Queue page beside
// the other "is the server well" facts. The primary's sessions acting for themselves only: alerts are the installation's (every tenant's domains).
import { Elysia } from "elysia";
import type { ConsoleDeps } from "./deps.ts";
import { permissions } from "../permission.ts";
import { primaryOnly } from "../../core/permissions.ts";

export function alertRoutes(deps: Pick<ConsoleDeps, "alerts">) {
  return new Elysia({ prefix: "/ui/api" }).use(permissions)
    .get("/alerts", async () => ({ alerts: await deps.alerts.incidents(true) }), { permission: primaryOnly("alerts.read") });
}

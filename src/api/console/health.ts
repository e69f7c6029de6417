// Console: the Health page (contract §13): the doctor's last run (the scheduler's or any other),
// run now when there is none or when `refresh=1` asks, and the blocklist history. Account keys.
import { Elysia } from "elysia";
import type { ConsoleDeps } from "./deps.ts";
import { permissions } from "../permission.ts";
import { PRIMARY_READ } from "../../core/permissions.ts";

export function healthRoutes(deps: ConsoleDeps) {
  return new Elysia({ prefix: "/ui/api" }).use(permissions)
    .get("/health", async ({ query }) => {
      const refresh = query.refresh === "1" || deps.doctor.last() === null;
      if (refresh) await deps.doctor.run();
      const last = deps.doctor.last()!;
      return { at: new Date(last.at).toISOString(), checks: last.checks, blocklists: await deps.doctor.blocklists(false) };
      // The checks cover every tenant's domains (and name them): the primary's page, acting for itself.
    }, { permission: PRIMARY_READ });
}

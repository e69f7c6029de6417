// Console: receivers' reports about a domain (contract §12): who sends as the domain, their volume
// and DMARC pass rate (this machine's own addresses marked), pass rate per day, TLS failures by
// receiving MX. Over the last `days` (default 30) of report periods or arrivals.
import { Elysia } from "elysia";
import { invalid } from "../../core/errors.ts";
import type { ConsoleDeps } from "./deps.ts";
import { permissions } from "../permission.ts";
import { domainFor, requiredField } from "./policy.ts";

const DAY = 86_400_000;

export function reportRoutes(deps: ConsoleDeps) {
  return new Elysia({ prefix: "/ui/api" }).use(permissions)
    .get("/reports", async ({ request, query }) => {
      const { domain } = await domainFor(request, deps.domains, requiredField(query, "domain"));
      const days = Number(typeof query.days === "string" && query.days ? query.days : 30);
      if (!Number.isInteger(days) || days < 1 || days > 366) throw invalid("days must be a whole number from 1 to 366", "days");
      const now = deps.now();
      return { domain: domain.name, days, ...(await deps.receiverReports.summary(domain, now - days * DAY, now + 1)) };
    }, { permission: { right: "domains.read" } });
}

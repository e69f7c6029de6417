// GET /domains/{domain}/reports/dmarc and /reports/tls: the receivers' reports kept for a domain
// (contract §12), one item per report with its rows, over ?from=&to= (Unix seconds or ISO 8601;
// default the last 30 days).
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import { AppError } from "../../core/errors.ts";
import { reportPeriod } from "../../core/receiver-reports.ts";
import type { ReceiverReportKind } from "../../core/receiver-report.ts";
import { permissions } from "../permission.ts";
import { queryText } from "./model.ts";
import { toReceiverReport } from "./report-mapper.ts";
import { visibleDomain } from "./policy.ts";

type Deps = Pick<SurfaceDeps, "domains" | "receiverReports" | "now">;

export function reportRoutes(deps: Deps) {
  const list = async (request: Request, name: string, query: Record<string, unknown>, kind: ReceiverReportKind) => {
    const { domain } = await visibleDomain(request, deps.domains, name);
    let period;
    try {
      period = reportPeriod(queryText(query, "from") || undefined, queryText(query, "to") || undefined, deps.now());
    } catch (e) {
      throw new AppError("invalid", (e as Error).message);
    }
    const items = await deps.receiverReports.list(domain, kind, period.from, period.to);
    return { items: items.map(toReceiverReport) };
  };
  return new Elysia({ name: "native-reports" }).use(permissions)
    .get("/domains/:domain/reports/dmarc", ({ request, params, query }) => list(request, params.domain, query, "dmarc"),
      { permission: { right: "domains.read", domain: "domain" } })
    .get("/domains/:domain/reports/tls", ({ request, params, query }) => list(request, params.domain, query, "tls"),
      { permission: { right: "domains.read", domain: "domain" } });
}

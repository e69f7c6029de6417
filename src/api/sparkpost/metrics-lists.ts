// SparkPost's lists of what the metrics can be grouped by: GET /api/v1/metrics/campaigns,
// /domains (recipient domains), /sending-domains, /templates, /ip-pools and /subaccounts, each
// `{"results":{"<name>":[…]}}` of the values seen in the range (`from` required, `to`, `match`
// a substring, `limit`).
import { Elysia } from "elysia";
import { json } from "../errors.ts";
import { permissions } from "../permission.ts";
import { need } from "./policy.ts";
import { readQuery } from "./query.ts";
import { readMetricsQuery } from "./metrics-query.ts";
import { GROUPS, scan, type Deps } from "./metrics.ts";

const READ = need("stats.read");

/** List path → the result's name and the grouping it lists. */
const LISTS: Record<string, { name: string; group: string }> = {
  campaigns: { name: "campaigns", group: "campaign" }, domains: { name: "domains", group: "domain" },
  "sending-domains": { name: "sending-domains", group: "sending-domain" }, templates: { name: "templates", group: "template" },
  "ip-pools": { name: "ip-pools", group: "ip-pool" }, subaccounts: { name: "subaccounts", group: "subaccount" },
};

async function list(deps: Deps, request: Request, path: string) {
  const q = readMetricsQuery(request, deps.now(), { isList: true });
  const match = readQuery(request).str("match")?.toLowerCase();
  const { name, group } = LISTS[path]!;
  const { of, needsMessage } = GROUPS[group]!;
  const seen = new Set<string | number>();
  await scan(deps, request, q, Boolean(needsMessage), (f) => {
    const v = of(f);
    if (v !== null && v !== undefined && v !== "" && (!match || String(v).toLowerCase().includes(match))) seen.add(v);
  });
  return json(200, { results: { [name]: [...seen].sort().slice(0, q.limit) } });
}

export function metricListRoutes(deps: Deps) {
  const app = new Elysia({ name: "sparkpost-metric-lists" }).use(permissions);
  for (const path of Object.keys(LISTS)) app.get(`/metrics/${path}`, ({ request }) => list(deps, request, path), { permission: READ });
  return app;
}

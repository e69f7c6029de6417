// SparkPost's deliverability metrics: GET /api/v1/metrics/deliverability (one row for the range),
// …/domain (recipient domain), …/sending-domain, …/campaign, …/template, …/ip-pool, …/subaccount
// (the tenant of the sending domain; `subaccounts=` keeps those tenants) and …/time-series (one row per bucket, zero
// rows included), counted from the stat facts of the key's domains (metrics-count.ts): the live
// events and what retention rolled up of them, so the counts outlive the events.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import type { StatFact } from "../../core/stats/facts.ts";
import { json } from "../errors.ts";
import { principalOf } from "../context.ts";
import { readTenant, seesDomain, seesTenant } from "../../core/permissions.ts";
import { need } from "./policy.ts";
import { permissions } from "../permission.ts";
import { SparkpostError } from "./errors.ts";
import { newTally, tally, type Metric, type Tally } from "./metrics-count.ts";
import { readMetricsQuery, type MetricsQuery } from "./metrics-query.ts";
import { bucketStart, formatTs, nextBucket } from "./metrics-buckets.ts";

export type Deps = Pick<SurfaceDeps, "activity" | "now" | "domains">;
/** A stat fact with the tenant (subaccount) of its sending domain. */
export type Fact = StatFact & { tenant: number };
type Dimension = (f: Fact) => string | number | null | undefined;

const READ = need("stats.read");
const MAX_BUCKETS = 10_000;

/** Grouped endpoints: path → the result's key and how a fact names its group. */
export const GROUPS: Record<string, { key: string; of: Dimension; needsMessage?: boolean }> = {
  domain: { key: "domain", of: (f) => f.rcptDomain },
  "sending-domain": { key: "sending_domain", of: (f) => f.domain },
  campaign: { key: "campaign_id", of: (f) => f.campaign, needsMessage: true },
  template: { key: "template_id", of: (f) => f.template, needsMessage: true },
  "ip-pool": { key: "ip_pool", of: (f) => f.ipPool || "default", needsMessage: true },
  subaccount: { key: "subaccount_id", of: (f) => f.tenant },
};

const pick = (t: Tally, metrics: Metric[]) => Object.fromEntries(metrics.map((m) => [m, Math.max(0, t.counts[m])]));

/** Every stat fact of the key's domains in the query's range (and filters): live events and retention's rollups. */
export async function scan(deps: Deps, request: Request, q: MetricsQuery, needsMessage: boolean, each: (f: Fact) => void) {
  const p = principalOf(request);
  const f = q.filters;
  // The tenant of every domain in the caller's read scope (X-MSYS-SUBACCOUNT); others' facts stay out.
  const tenantOf = new Map((await deps.domains.list(readTenant(p))).map((d) => [d.name, d.tenantId ?? 0]));
  const withMessages = needsMessage || Boolean(f.campaigns || f.templates || f.ipPools) || q.metrics.includes("total_msg_volume");
  const facts = await deps.activity.statFacts(p.kind === "domain" && p.domain ? p.domain.name : null, { begin: q.from, end: q.to, withMessages });
  for (const x of facts) {
    // A domain since removed counts as the primary's, as before tenants.
    const tenant = tenantOf.get(x.domain) ?? (seesTenant(p, 0) && seesDomain(p, x.domain) ? 0 : undefined);
    if (tenant === undefined || (f.subaccounts && !f.subaccounts.includes(String(tenant)))) continue;
    if (f.domains && !f.domains.includes(x.rcptDomain)) continue;
    if (f.sendingDomains && !f.sendingDomains.includes(x.domain)) continue;
    if (f.campaigns && !f.campaigns.includes(x.campaign)) continue;
    if (f.templates && !f.templates.includes(x.template)) continue;
    if (f.ipPools && !f.ipPools.includes(x.ipPool || "default")) continue;
    each({ ...x, tenant });
  }
}

async function total(deps: Deps, request: Request) {
  const q = readMetricsQuery(request, deps.now());
  const t = newTally();
  await scan(deps, request, q, false, (f) => tally(t, f));
  return json(200, { results: [pick(t, q.metrics)] });
}

async function grouped(deps: Deps, request: Request, name: string) {
  const q = readMetricsQuery(request, deps.now());
  const group = GROUPS[name]!;
  const tallies = new Map<string | number, Tally>();
  await scan(deps, request, q, Boolean(group.needsMessage), (f) => {
    const key = group.of(f);
    if (key === null || key === undefined || key === "") return;
    if (!tallies.has(key)) tallies.set(key, newTally());
    tally(tallies.get(key)!, f);
  });
  const order = q.orderBy ?? q.metrics[0]!;
  const rows = [...tallies].sort((a, b) => b[1].counts[order] - a[1].counts[order] || String(a[0]).localeCompare(String(b[0])));
  return json(200, { results: rows.slice(0, q.limit).map(([key, t]) => ({ [group.key]: key, ...pick(t, q.metrics) })) });
}

async function timeSeries(deps: Deps, request: Request) {
  const q = readMetricsQuery(request, deps.now(), { isTimeSeries: true });
  const precision = q.precision!;
  const starts: number[] = [];
  for (let s = bucketStart(q.from, precision, q.timezone); s <= q.to; s = nextBucket(s, precision, q.timezone)) {
    starts.push(s);
    if (starts.length > MAX_BUCKETS) {
      throw new SparkpostError(400, [{ message: "invalid data format/type", code: "1300", param: "precision", value: precision,
        description: `the range holds more than ${MAX_BUCKETS} buckets of ${precision}: choose a coarser precision` }]);
    }
  }
  const tallies = starts.map(() => newTally());
  await scan(deps, request, q, false, (f) => tally(tallies[bucketIndex(starts, f.at)]!, f));
  return json(200, { results: starts.map((s, k) => ({ ...pick(tallies[k]!, q.metrics), ts: formatTs(s, q.timezone) })) });
}

/** The index of the last bucket starting at or before `at` (0 for a rolled-up hour that began before the first). */
function bucketIndex(starts: number[], at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= at) lo = mid; else hi = mid - 1;
  }
  return lo;
}

export function metricsRoutes(deps: Deps) {
  const app = new Elysia({ name: "sparkpost-metrics" }).use(permissions)
    .get("/metrics/deliverability", ({ request }) => total(deps, request), { permission: READ })
    .get("/metrics/deliverability/time-series", ({ request }) => timeSeries(deps, request), { permission: READ });
  for (const name of Object.keys(GROUPS)) app.get(`/metrics/deliverability/${name}`, ({ request }) => grouped(deps, request, name), { permission: READ });
  return app;
}

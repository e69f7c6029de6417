// SparkPost's deliverability metrics: GET /api/v1/metrics/deliverability (one row for the range),
// …/domain (recipient domain), …/sending-domain, …/campaign, …/template, …/ip-pool, …/subaccount
// (postern has none: the account is subaccount 0) and …/time-series (one row per bucket, zero
// rows included), counted from the recorded events of the key's domains (metrics-count.ts).
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import type { MessageEvent } from "../../core/model.ts";
import type { StoredMessage } from "../../core/store-port.ts";
import { json } from "../errors.ts";
import { principalOf } from "../context.ts";
import { need } from "./policy.ts";
import { permissions } from "../permission.ts";
import { SparkpostError } from "./errors.ts";
import { newTally, tally, type Metric, type Tally } from "./metrics-count.ts";
import { readMetricsQuery, type MetricsQuery } from "./metrics-query.ts";
import { bucketStart, formatTs, nextBucket } from "./metrics-buckets.ts";

export type Deps = Pick<SurfaceDeps, "activity" | "now">;
type Dimension = (e: MessageEvent, m: StoredMessage | null) => string | number | null | undefined;

const READ = need("stats.read");
const SCAN_BATCH = 1000;
const MAX_EVENTS = 500_000;
const MAX_BUCKETS = 10_000;

/** Grouped endpoints: path → the result's key and how an event names its group. */
export const GROUPS: Record<string, { key: string; of: Dimension; needsMessage?: boolean }> = {
  domain: { key: "domain", of: (e) => e.recipient.slice(e.recipient.lastIndexOf("@") + 1) },
  "sending-domain": { key: "sending_domain", of: (e) => e.domain },
  campaign: { key: "campaign_id", of: (_e, m) => m?.extra?.campaignId, needsMessage: true },
  template: { key: "template_id", of: (_e, m) => m?.extra?.templateId, needsMessage: true },
  "ip-pool": { key: "ip_pool", of: (_e, m) => m?.extra?.ipPool ?? "default", needsMessage: true },
  subaccount: { key: "subaccount_id", of: () => 0 },
};

const pick = (t: Tally, metrics: Metric[]) => Object.fromEntries(metrics.map((m) => [m, Math.max(0, t.counts[m])]));

const sizeOf = (m: StoredMessage | null) => m?.size ?? 0;

/** Every event of the key's domains in the query's range (and filters), with its message when needed. */
export async function scan(deps: Deps, request: Request, q: MetricsQuery, needsMessage: boolean, each: (e: MessageEvent, m: StoredMessage | null) => void) {
  const p = principalOf(request);
  const f = q.filters;
  const messages = new Map<string, StoredMessage | null>();
  const messageOf = async (e: MessageEvent) => {
    if (!messages.has(e.messageId)) messages.set(e.messageId, (await deps.activity.message(e.domain, e.messageId))?.message ?? null);
    return messages.get(e.messageId)!;
  };
  const wantsMessage = needsMessage || Boolean(f.campaigns || f.templates || f.ipPools) || q.metrics.includes("total_msg_volume");
  if (f.subaccounts && !f.subaccounts.includes("0")) return;
  let cursor: string | undefined;
  for (let read = 0; read < MAX_EVENTS; read += SCAN_BATCH) {
    const query = { begin: q.from, end: q.to + 1, ascending: true, limit: SCAN_BATCH, ...(cursor ? { cursor } : {}) };
    const batch = p.kind === "domain" && p.domain ? await deps.activity.events(p.domain.name, query) : await deps.activity.allEvents(query);
    for (const e of batch) {
      if (f.domains && !f.domains.includes(e.recipient.slice(e.recipient.lastIndexOf("@") + 1))) continue;
      if (f.sendingDomains && !f.sendingDomains.includes(e.domain)) continue;
      const m = wantsMessage ? await messageOf(e) : null;
      if (f.campaigns && !f.campaigns.includes(m?.extra?.campaignId ?? "")) continue;
      if (f.templates && !f.templates.includes(m?.extra?.templateId ?? "")) continue;
      if (f.ipPools && !f.ipPools.includes(m?.extra?.ipPool ?? "default")) continue;
      each(e, m);
    }
    if (batch.length < SCAN_BATCH) break;
    cursor = batch.at(-1)!.id;
  }
}


async function total(deps: Deps, request: Request) {
  const q = readMetricsQuery(request, deps.now());
  const t = newTally();
  await scan(deps, request, q, false, (e, m) => tally(t, e, sizeOf(m)));
  return json(200, { results: [pick(t, q.metrics)] });
}

async function grouped(deps: Deps, request: Request, name: string) {
  const q = readMetricsQuery(request, deps.now());
  const group = GROUPS[name]!;
  const tallies = new Map<string | number, Tally>();
  await scan(deps, request, q, Boolean(group.needsMessage), (e, m) => {
    const key = group.of(e, m);
    if (key === null || key === undefined || key === "") return;
    if (!tallies.has(key)) tallies.set(key, newTally());
    tally(tallies.get(key)!, e, sizeOf(m));
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
  let i = 0;
  await scan(deps, request, q, false, (e, m) => {
    while (i + 1 < starts.length && e.timestamp >= starts[i + 1]!) i++;
    tally(tallies[i]!, e, sizeOf(m));
  });
  return json(200, { results: starts.map((s, k) => ({ ...pick(tallies[k]!, q.metrics), ts: formatTs(s, q.timezone) })) });
}

export function metricsRoutes(deps: Deps) {
  const app = new Elysia({ name: "sparkpost-metrics" }).use(permissions)
    .get("/metrics/deliverability", ({ request }) => total(deps, request), { permission: READ })
    .get("/metrics/deliverability/time-series", ({ request }) => timeSeries(deps, request), { permission: READ });
  for (const name of Object.keys(GROUPS)) app.get(`/metrics/deliverability/${name}`, ({ request }) => grouped(deps, request, name), { permission: READ });
  return app;
}

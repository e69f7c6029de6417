// The query of SparkPost's metrics API: from (required) and to as YYYY-MM-DDTHH:MM in `timezone`
// (default UTC; a value with its own offset or Z is taken as is), metrics (required, a list of
// SparkPost's names), the filters, precision (time series), limit and order_by. A bad parameter is
// a 400 naming it, as SparkPost's metrics API answers.
import { SparkpostError } from "./errors.ts";
import { readQuery } from "./query.ts";
import { METRICS, type Metric } from "./metrics-count.ts";

export const PRECISIONS = ["1min", "5min", "15min", "hour", "12hr", "day", "week", "month"] as const;
export type Precision = (typeof PRECISIONS)[number];

export interface MetricsQuery {
  from: number;
  to: number;
  metrics: Metric[];
  timezone: string;
  precision?: Precision;
  filters: { domains?: string[]; sendingDomains?: string[]; campaigns?: string[]; templates?: string[]; subaccounts?: string[]; ipPools?: string[] };
  limit: number;
  orderBy?: Metric;
}

const badParam = (param: string, value: unknown, description: string) =>
  new SparkpostError(400, [{ message: "invalid data format/type", code: "1300", description, param, value: value ?? null }]);

/** The offset of `timezone` from UTC at `utcMs`, in ms (throws RangeError for an unknown zone). */
export function zoneOffset(timezone: string, utcMs: number): number {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone: timezone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric",
    hour: "numeric", minute: "numeric", second: "numeric" }).formatToParts(new Date(utcMs));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(n("year"), n("month") - 1, n("day"), n("hour"), n("minute"), n("second")) - Math.floor(utcMs / 1000) * 1000;
}

function readTime(raw: string | undefined, param: string, timezone: string): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(raw);
  if (!m) throw badParam(param, raw, `${param} must be a time as YYYY-MM-DDTHH:MM`);
  if (m[7]) {
    const ms = Date.parse(raw.replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
    if (Number.isNaN(ms)) throw badParam(param, raw, `${param} must be a time as YYYY-MM-DDTHH:MM`);
    return ms;
  }
  const local = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0));
  if (Number.isNaN(local) || new Date(local).getUTCDate() !== +m[3]!) throw badParam(param, raw, `${param} is not a valid date`);
  return local - zoneOffset(timezone, local - zoneOffset(timezone, local));
}

/** `isList`: the lists of names (/metrics/campaigns…) take no metrics. */
export function readMetricsQuery(request: Request, now: number, opts: { isTimeSeries?: boolean; isList?: boolean } = {}): MetricsQuery {
  const q = readQuery(request);
  const timezone = q.str("timezone") || "UTC";
  try { zoneOffset(timezone, now); } catch { throw badParam("timezone", timezone, "timezone must be a time zone name such as UTC or America/New_York"); }
  const from = readTime(q.str("from"), "from", timezone);
  if (from === undefined) throw badParam("from", null, "from is required");
  const to = readTime(q.str("to"), "to", timezone) ?? now;
  if (to < from) throw badParam("to", q.str("to"), "to must not be before from");
  const metrics = opts.isList ? [] : q.list("metrics") ?? [];
  if (!metrics.length && !opts.isList) throw badParam("metrics", null, "metrics is required: a comma-separated list of metric names");
  const unknown = metrics.find((m) => !(METRICS as readonly string[]).includes(m));
  if (unknown) throw badParam("metrics", unknown, `unknown metric ${unknown}; supported: ${METRICS.join(", ")}`);
  const precision = q.str("precision");
  if (precision && !(PRECISIONS as readonly string[]).includes(precision)) throw badParam("precision", precision, `precision must be one of ${PRECISIONS.join(", ")}`);
  const orderBy = q.str("order_by");
  if (orderBy && !metrics.includes(orderBy)) throw badParam("order_by", orderBy, "order_by must be one of the requested metrics");
  const limitRaw = q.str("limit");
  const limit = limitRaw ? Number(limitRaw) : 1000;
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw badParam("limit", limitRaw, "limit must be an integer from 1 to 10000");
  const lower = (name: string) => q.list(name)?.map((v) => v.toLowerCase());
  return {
    from, to, metrics: [...new Set(metrics)] as Metric[], timezone, limit, ...(orderBy ? { orderBy: orderBy as Metric } : {}),
    ...(opts.isTimeSeries ? { precision: (precision as Precision | undefined) ?? (to - from <= 7 * 86_400_000 ? "hour" : "day") } : {}),
    filters: { domains: lower("domains"), sendingDomains: lower("sending_domains"), campaigns: q.list("campaigns"), templates: q.list("templates"),
      subaccounts: q.list("subaccounts"), ipPools: q.list("ip_pools") },
  };
}

// GET /v3/{domain}/stats/total and /v3/stats/total: the query (event, start, end, resolution,
// duration) and the hourly counts of the activity service rolled up into Mailgun's zero-filled
// buckets. mailgun.js maps `stats` and parses `start`, `end` and every `time` with `new Date`.
import { invalid } from "../../core/errors.ts";
import type { Form } from "./form.ts";
import { formatDate, parseDate } from "./model.ts";

export const STAT_EVENTS = ["accepted", "delivered", "failed", "opened", "clicked", "unsubscribed", "complained", "stored"];
const RESOLUTIONS = ["hour", "day", "month"] as const;
type Resolution = (typeof RESOLUTIONS)[number];
const DEFAULT_SPAN_MS = 7 * 86_400_000;
const HOUR_MS = 3_600_000;
/** Bounds the zero-filled answer (10,000 hours is about 14 months). */
const MAX_BUCKETS = 10_000;
const BUCKET_MS: Record<string, number> = { hour: HOUR_MS, day: 86_400_000, month: 28 * 86_400_000 };

export interface StatsQuery { events: string[]; start: number; end: number; resolution: Resolution }

/** Start of the UTC hour/day/month holding `ms`, moved `steps` buckets on. */
function bucketStart(ms: number, resolution: Resolution, steps = 0): number {
  const d = new Date(ms);
  if (resolution === "hour") return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours() + steps);
  if (resolution === "day") return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + steps);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + steps, 1);
}

/** `duration` is N followed by h, d or m (months), counted back from `end`. */
function startFromDuration(duration: string, end: number): number {
  const m = /^(\d+)([hdm])$/.exec(duration.trim());
  if (!m) throw invalid(`duration must look like 12h, 7d or 3m, got "${duration}"`, "duration");
  const n = Number(m[1]);
  if (m[2] === "h") return end - n * HOUR_MS;
  if (m[2] === "d") return end - n * 86_400_000;
  const d = new Date(end);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - n, d.getUTCDate(), d.getUTCHours());
}

export function readStatsQuery(form: Form, now: number): StatsQuery {
  const events = form.getAll("event").flatMap((e) => e.split(",")).map((e) => e.trim()).filter(Boolean);
  if (!events.length) throw invalid("event parameter is missing: name at least one of " + STAT_EVENTS.join(", "), "event");
  const unknown = events.find((e) => !STAT_EVENTS.includes(e));
  if (unknown) throw invalid(`unknown event "${unknown}": use ${STAT_EVENTS.join(", ")}`, "event");
  const resolution = (form.get("resolution") ?? "day") as Resolution;
  if (!RESOLUTIONS.includes(resolution)) throw invalid("resolution must be hour, day or month", "resolution");
  const dateOf = (name: string) => {
    const v = form.get(name);
    const ms = parseDate(v);
    if (v && ms === null) throw invalid(`${v} is not an RFC-2822 compliant date`, name);
    return ms;
  };
  const end = dateOf("end") ?? now;
  const duration = form.get("duration");
  const start = duration ? startFromDuration(duration, end) : dateOf("start") ?? end - DEFAULT_SPAN_MS;
  if (start > end) throw invalid("start must be before end", "start");
  if ((end - start) / BUCKET_MS[resolution]! > MAX_BUCKETS) throw invalid(`too many ${resolution}s between start and end: use a coarser resolution`, "resolution");
  return { events: [...new Set(events)], start, end, resolution };
}

function statsFor(event: string, n: (type: string) => number) {
  switch (event) {
    case "accepted": return { outgoing: n("accepted"), incoming: 0, total: n("accepted") };
    case "delivered": return { smtp: n("delivered"), http: 0, optimized: 0, total: n("delivered") };
    case "failed": return {
      permanent: { bounce: n("failed"), "delayed-bounce": 0, "suppress-bounce": 0, "suppress-unsubscribe": 0, "suppress-complaint": 0, total: n("failed") },
      temporary: { espblock: n("deferred"), total: n("deferred") },
    };
    case "stored": return { total: 0 };
    default: return { total: n(event) };
  }
}

/** Rolls hourly counts into one zero-filled bucket per resolution step from start to end. */
/** Where the counts to read begin: the start of the first bucket. */
export const countsBegin = (q: StatsQuery) => bucketStart(q.start, q.resolution);

export function toStatsResponse(q: StatsQuery, counts: { type: string; bucket: number; count: number }[]) {
  const buckets = new Map<number, Map<string, number>>();
  for (const c of counts) {
    const key = bucketStart(c.bucket, q.resolution);
    const m = buckets.get(key) ?? new Map<string, number>();
    m.set(c.type, (m.get(c.type) ?? 0) + c.count);
    buckets.set(key, m);
  }
  const stats = [];
  for (let at = bucketStart(q.start, q.resolution), i = 1; at <= q.end; at = bucketStart(q.start, q.resolution, i++)) {
    const m = buckets.get(at);
    const n = (type: string) => m?.get(type) ?? 0;
    stats.push({ time: formatDate(at), ...Object.fromEntries(q.events.map((e) => [e, statsFor(e, n)])) });
  }
  return { start: formatDate(q.start), end: formatDate(q.end), resolution: q.resolution, stats };
}

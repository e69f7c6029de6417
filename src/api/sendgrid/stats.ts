// SendGrid's stats: GET /v3/stats (global) and GET /v3/categories/stats (per category, a category
// being a message's tag) and /v3/categories/stats/sums, by day, week or month, computed from the
// recorded events. A domain key reads its domain; an account key every domain. Bot opens and
// clicks are left out, as in postern's other stats.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import type { MessageEvent, SuppressingList } from "../../core/model.ts";
import { invalid } from "../../core/errors.ts";
import { reportListFor } from "../../core/suppression-policy.ts";
import { json } from "../errors.ts";
import { principalOf } from "../context.ts";
import { permissions } from "../permission.ts";

type Deps = Pick<SurfaceDeps, "activity" | "now">;
type Metrics = Record<(typeof METRICS)[number], number>;

const STATS = { right: "stats.read" } as const;
const METRICS = ["blocks", "bounce_drops", "bounces", "clicks", "deferred", "delivered", "invalid_emails", "opens", "processed", "requests",
  "spam_report_drops", "spam_reports", "unique_clicks", "unique_opens", "unsubscribe_drops", "unsubscribes"] as const;
const DAY_MS = 86_400_000;
const SCAN_BATCH = 1000;
const MAX_EVENTS = 200_000;
const DROPS: Record<SuppressingList, keyof Metrics> = { bounces: "bounce_drops", unsubscribes: "unsubscribe_drops", complaints: "spam_report_drops" };

const zero = (): Metrics => Object.fromEntries(METRICS.map((m) => [m, 0])) as Metrics;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function parseDay(value: string | null, field: string): number | null {
  if (value === null || value === "") return null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) throw invalid(`${field} must be a date as YYYY-MM-DD`, field);
  return Date.parse(`${value}T00:00:00Z`);
}

/** The start of the bucket holding `ms`: the day, the week (from Monday) or the month. */
function bucketOf(ms: number, by: string): number {
  const d = new Date(ms);
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  if (by === "week") return day - ((d.getUTCDay() + 6) % 7) * DAY_MS;
  if (by === "month") return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  return day;
}

/** A refusal of the mail (not of the address) is a block; a bad address is a bounce and an invalid email. */
function countFailure(m: Metrics, e: MessageEvent) {
  const listed = reportListFor(e)?.type;
  if (listed === "blocks") { m.blocks++; return; }
  m.bounces++;
  if (listed === "invalid") m.invalid_emails++;
}

/** Adds one event to `m`; `seen` makes unique opens and clicks count a recipient of a message once. */
function count(m: Metrics, e: MessageEvent, seen: Set<string>, row = "") {
  const once = (kind: string) => {
    const key = `${row}|${kind}|${e.messageId}|${e.recipient}`;
    return !seen.has(key) && Boolean(seen.add(key));
  };
  switch (e.type) {
    case "accepted": m.requests++; m.processed++; break;
    case "rejected": m.requests++; break;
    case "delivered": m.delivered++; break;
    case "deferred": m.deferred++; break;
    case "failed":
      // A cancelled scheduled send was a request already (accepted): it is no drop and no bounce.
      if (e.reason === "cancelled") break;
      if (e.reason === "suppressed") { m.requests++; m[DROPS[e.suppressedBy ?? "bounces"] ?? "bounce_drops"]++; }
      else if (e.severity === "temporary") m.deferred++;
      else countFailure(m, e);
      break;
    case "opened": if (!e.isBot) { m.opens++; if (once("o")) m.unique_opens++; } break;
    case "clicked": if (!e.isBot) { m.clicks++; if (once("c")) m.unique_clicks++; } break;
    case "unsubscribed": m.unsubscribes++; break;
    case "complained": m.spam_reports++; break;
  }
}

export function statsRoutes(deps: Deps) {
  /** Every event of the caller's domains in [begin, end), oldest first. */
  async function eventsIn(request: Request, begin: number, end: number): Promise<MessageEvent[]> {
    const p = principalOf(request);
    const out: MessageEvent[] = [];
    let cursor: string | undefined;
    while (out.length < MAX_EVENTS) {
      const q = { begin, end: end - 1, ascending: true, limit: SCAN_BATCH, ...(cursor && { cursor }) };
      const batch = p.kind === "domain" && p.domain ? await deps.activity.events(p.domain.name, q) : await deps.activity.allEvents(q);
      out.push(...batch);
      if (batch.length < SCAN_BATCH) break;
      cursor = batch.at(-1)!.id;
    }
    return out;
  }

  function query(request: Request) {
    const q = new URL(request.url).searchParams;
    const start = parseDay(q.get("start_date"), "start_date");
    if (start === null) throw invalid("start_date is required", "start_date");
    const end = (parseDay(q.get("end_date"), "end_date") ?? bucketOf(deps.now(), "day")) + DAY_MS;
    if (end <= start) throw invalid("end_date must not be before start_date", "end_date");
    const by = q.get("aggregated_by") ?? "day";
    if (!["day", "week", "month"].includes(by)) throw invalid("aggregated_by must be day, week or month", "aggregated_by");
    return { start, end, by, categories: q.getAll("categories").flatMap((c) => c.split(",")).map((c) => c.trim()).filter(Boolean) };
  }

  /** One zero-filled entry per bucket from start to end, each holding `rows` (one per name). */
  async function series(request: Request, names: (string | null)[]) {
    const { start, end, by } = query(request);
    const buckets = new Map<number, Map<string | null, Metrics>>();
    for (let at = bucketOf(start, by); at < end; at = bucketOf(at + (by === "month" ? 32 : by === "week" ? 7 : 1) * DAY_MS, by)) {
      buckets.set(at, new Map(names.map((n) => [n, zero()])));
    }
    const seen = new Set<string>();
    for (const e of await eventsIn(request, start, end)) {
      const rows = buckets.get(bucketOf(e.timestamp, by));
      for (const n of names) if (rows && (n === null || e.tags.includes(n))) count(rows.get(n)!, e, seen, n ?? "");
    }
    return [...buckets].map(([at, rows]) => ({ date: dayOf(at), stats: [...rows].map(([name, metrics]) => (name === null ? { metrics } : { type: "category", name, metrics })) }));
  }

  return new Elysia({ name: "sendgrid-stats" }).use(permissions)
    .get("/v3/stats", async ({ request }) => json(200, await series(request, [null])), { permission: STATS })
    .get("/v3/categories/stats", async ({ request }) => {
      const { categories } = query(request);
      if (!categories.length) throw invalid("categories is required", "categories");
      return json(200, await series(request, categories));
    }, { permission: STATS })
    .get("/v3/categories/stats/sums", async ({ request }) => {
      const { start, end } = query(request);
      const sums = new Map<string, Metrics>();
      const seen = new Set<string>();
      for (const e of await eventsIn(request, start, end)) {
        for (const t of e.tags) count(sums.get(t) ?? sums.set(t, zero()).get(t)!, e, seen, t);
      }
      return json(200, { date: dayOf(start), stats: [...sums].sort(([a], [b]) => a.localeCompare(b)).map(([name, metrics]) => ({ type: "category", name, metrics })) });
    }, { permission: STATS });
}

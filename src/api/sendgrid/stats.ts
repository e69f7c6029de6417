// SendGrid's stats: GET /v3/stats (global) and GET /v3/categories/stats (per category, a category
// being a message's tag) and /v3/categories/stats/sums, by day, week or month, computed from the
// recorded events and what retention rolled up of them (core/stats/facts.ts), so the counts
// outlive the events. A domain key reads its domain; an account key every domain. Bot opens and
// clicks are left out, as in postern's other stats; a unique open or click is a recipient's first
// (not by a bot) of that message, flagged when it was recorded.
import { Elysia } from "elysia";
import type { SurfaceDeps } from "../deps.ts";
import type { SuppressingList } from "../../core/model.ts";
import type { StatFact } from "../../core/stats/facts.ts";
import type { StatKey } from "../../core/stats/stat-key.ts";
import { invalid } from "../../core/errors.ts";
import { json } from "../errors.ts";
import { principalOf } from "../context.ts";
import { permissions } from "../permission.ts";
import { primaryOnly, seesDomain } from "../../core/permissions.ts";

type Deps = Pick<SurfaceDeps, "activity" | "now" | "tenants" | "domains">;
/** One row of a series: its name (null: every event), its wire type, and which facts it counts. */
type Row = { name: string | null; type?: "category" | "subuser"; has: (f: StatFact) => boolean };
type Metrics = Record<(typeof METRICS)[number], number>;

const STATS = { right: "stats.read" } as const;
const METRICS = ["blocks", "bounce_drops", "bounces", "clicks", "deferred", "delivered", "invalid_emails", "opens", "processed", "requests",
  "spam_report_drops", "spam_reports", "unique_clicks", "unique_opens", "unsubscribe_drops", "unsubscribes"] as const;
const DAY_MS = 86_400_000;
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
function countFailure(m: Metrics, k: StatKey, n: number) {
  if (k.listed === "blocks") { m.blocks += n; return; }
  m.bounces += n;
  if (k.listed === "invalid") m.invalid_emails += n;
}

/** Whether an open or click is its recipient's first not by a bot; `seen` decides for events recorded without firsts. */
function isUnique(f: StatFact, seen: Set<string>, row: string): boolean {
  if (f.key.firsts) return f.key.firsts.includes("human");
  const key = `${row}|${f.key.type}|${f.who}`;
  return !seen.has(key) && Boolean(seen.add(key));
}

/** Adds one fact (n events of one stat key) to `m`. */
function count(m: Metrics, f: StatFact, seen: Set<string>, row = "") {
  const { key: k, n } = f;
  switch (k.type) {
    case "accepted": m.requests += n; m.processed += n; break;
    case "rejected": m.requests += n; break;
    case "delivered": m.delivered += n; break;
    case "deferred": m.deferred += n; break;
    case "failed":
      // A cancelled scheduled send was a request already (accepted): it is no drop and no bounce.
      if (k.reason === "cancelled") break;
      if (k.reason === "suppressed") { m.requests += n; m[DROPS[k.suppressedBy ?? "bounces"] ?? "bounce_drops"] += n; }
      else if (k.temporary) m.deferred += n;
      else countFailure(m, k, n);
      break;
    case "opened": if (!k.bot) { m.opens += n; if (isUnique(f, seen, row)) m.unique_opens += n; } break;
    case "clicked": if (!k.bot) { m.clicks += n; if (isUnique(f, seen, row)) m.unique_clicks += n; } break;
    case "unsubscribed": m.unsubscribes += n; break;
    case "complained": m.spam_reports += n; break;
  }
}

export function statsRoutes(deps: Deps) {
  /** The stat facts of the caller's domains in [begin, end) (its tenant's, unless `everyTenant`): live events and retention's rollups. */
  async function factsIn(request: Request, begin: number, end: number, tags?: string[] | "*", everyTenant = false): Promise<StatFact[]> {
    const p = principalOf(request);
    const facts = await deps.activity.statFacts(p.kind === "domain" && p.domain ? p.domain.name : null, { begin, end: end - 1, ...(tags && { tags }) });
    return everyTenant ? facts : facts.filter((f) => seesDomain(p, f.domain));
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

  /** One zero-filled entry per bucket from start to end, each holding `rows`. */
  async function series(request: Request, rows: Row[], everyTenant = false) {
    const { start, end, by } = query(request);
    const buckets = new Map<number, Metrics[]>();
    for (let at = bucketOf(start, by); at < end; at = bucketOf(at + (by === "month" ? 32 : by === "week" ? 7 : 1) * DAY_MS, by)) {
      buckets.set(at, rows.map(zero));
    }
    const seen = new Set<string>();
    const categories = rows.flatMap((r) => (r.type === "category" && r.name !== null ? [r.name] : []));
    for (const f of await factsIn(request, start, end, categories.length ? categories : undefined, everyTenant)) {
      const metrics = buckets.get(bucketOf(f.at, by));
      rows.forEach((r, i) => { if (metrics && r.has(f)) count(metrics[i]!, f, seen, r.name ?? ""); });
    }
    return [...buckets].map(([at, metrics]) => ({ date: dayOf(at),
      stats: rows.map((r, i) => (r.name === null ? { metrics: metrics[i]! } : { type: r.type, name: r.name, metrics: metrics[i]! })) }));
  }

  /** SendGrid's subuser stats: one row per named subuser (tenant), over its domains. */
  async function subuserRows(request: Request): Promise<Row[]> {
    const names = new URL(request.url).searchParams.getAll("subusers").flatMap((s) => s.split(",")).map((s) => s.trim()).filter(Boolean);
    if (!names.length) throw invalid("subusers is required", "subusers");
    return Promise.all(names.map(async (name) => {
      const t = await deps.tenants.require(name).catch(() => { throw invalid(`subuser ${name} does not exist`, "subusers"); });
      const own = new Set((await deps.domains.list(t.id)).map((d) => d.name));
      return { name, type: "subuser" as const, has: (f: StatFact) => own.has(f.domain) };
    }));
  }

  return new Elysia({ name: "sendgrid-stats" }).use(permissions)
    .get("/v3/stats", async ({ request }) => json(200, await series(request, [{ name: null, has: () => true }])), { permission: STATS })
    .get("/v3/categories/stats", async ({ request }) => {
      const { categories } = query(request);
      if (!categories.length) throw invalid("categories is required", "categories");
      return json(200, await series(request, categories.map((c) => ({ name: c, type: "category" as const, has: (f: StatFact) => f.tags.includes(c) }))));
    }, { permission: STATS })
    .get("/v3/subusers/stats", async ({ request }) => json(200, await series(request, await subuserRows(request), true)),
      { permission: primaryOnly(STATS.right) })
    .get("/v3/categories/stats/sums", async ({ request }) => {
      const { start, end } = query(request);
      const sums = new Map<string, Metrics>();
      const seen = new Set<string>();
      for (const f of await factsIn(request, start, end, "*")) {
        for (const t of f.tags) count(sums.get(t) ?? sums.set(t, zero()).get(t)!, f, seen, t);
      }
      return json(200, { date: dayOf(start), stats: [...sums].sort(([a], [b]) => a.localeCompare(b)).map(([name, metrics]) => ({ type: "category", name, metrics })) });
    }, { permission: STATS });
}

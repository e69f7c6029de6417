// Which account-wide listings of zone data are gathered from every zone, and how their answers
// merge (merge.ts), and which account-wide writes every zone does its part of. Only requests that name no domain get here: an account key's (a domain key's
// request goes to its domain's zone). Each entry says where the items are, their order (the one
// every zone sorts by), and how the page is cut; sums say which fields are no counters.
import type { ZoneSurface } from "./errors.ts";
import type { ListMerge, Merge } from "./merge.ts";

export interface FanoutRoute {
  surface: ZoneSurface; path: RegExp; merge: Merge; /** Default GET. */ method?: string;
  /** Only requests with this query are gathered (others are served here as they are). */
  when?: (query: URLSearchParams) => boolean;
}

type Obj = Record<string, unknown>;
const field = (x: unknown, name: string) => (x as Obj)[name];
const str = (x: unknown, name: string) => String(field(x, name) ?? "");
const num = (x: unknown, name: string) => Number(field(x, name) ?? 0);
const results = (body: unknown): unknown[] => (Array.isArray(field(body, "results")) ? field(body, "results") as unknown[] : []);
const array = (body: unknown): unknown[] => (Array.isArray(body) ? body : []);
/** A query with one parameter changed, as a path the client can follow. */
const withParam = (path: string, query: URLSearchParams, name: string, value: string) => {
  const q = new URLSearchParams(query);
  q.set(name, value);
  return `${path}?${q.toString()}`;
};
const between = (q: URLSearchParams, names: string[], dflt: number, max: number) => {
  const raw = names.map((n) => q.get(n)).find((v) => v !== null);
  return Math.min(Math.max(Math.trunc(Number(raw ?? dflt)) || dflt, 1), max);
};

/** SendGrid's suppression lists: newest first (then by address), `limit` ≤ 500 and `offset`. */
const sendgridSuppressions: ListMerge = {
  kind: "list", items: array,
  order: (a, b) => num(b, "created") - num(a, "created") || str(a, "email").localeCompare(str(b, "email")),
  paging: { type: "offset", limitParam: "limit", offsetParam: "offset", defaultLimit: 500, maxLimit: 500 },
  build: (page) => page,
};

/** SparkPost's message events: newest first; the cursor is an event id (ids are time-ordered in every zone). */
const sparkpostEvents: ListMerge = {
  kind: "list", items: results,
  order: (a, b) => num(b, "timestamp") - num(a, "timestamp") || str(b, "event_id").localeCompare(str(a, "event_id")),
  paging: { type: "cursor", limit: (q) => between(q, ["per_page"], 1000, 10_000), positionOf: (e) => str(e, "event_id"),
    hasMore: (body) => Boolean(field(field(body, "links"), "next")) },
  build: (page, { query, next }) => ({ results: page, total_count: page.length,
    links: next ? { next: withParam("/api/v1/events/message", query, "cursor", next) } : {} }),
};

/** SparkPost's suppression list: by address; the cursor is the last address (base64url); an address in two zones shows once per type. */
const SOURCE_RANK = ["Spam Complaint", "Unsubscribe Link", "List Unsubscribe", "Manually Added", "Bounce Rule"];
const sparkpostSuppressions: ListMerge = {
  kind: "list", items: results,
  // Per address: transactional first (as each zone lists them), the strongest source first.
  order: (a, b) => str(a, "recipient").localeCompare(str(b, "recipient")) || str(b, "type").localeCompare(str(a, "type")) ||
    SOURCE_RANK.indexOf(str(a, "source")) - SOURCE_RANK.indexOf(str(b, "source")),
  identity: (e) => `${str(e, "recipient")} ${str(e, "type")}`,
  paging: { type: "cursor", limit: (q) => between(q, ["per_page", "limit"], 1000, 10_000), positionOf: (e) => str(e, "recipient"),
    hasMore: (body) => (field(body, "links") as Obj[] | undefined)?.some((l) => l.rel === "next") ?? false },
  build: (page, { bodies, query, next }) => {
    const base = `/api/v1/suppression-list?per_page=${between(query, ["per_page", "limit"], 1000, 10_000)}`;
    return { results: page, total_count: bodies.reduce((n: number, b) => n + num(b, "total_count"), 0),
      links: [{ href: base, rel: "first" }, ...(next ? [{ href: `${base}&cursor=${Buffer.from(next).toString("base64url")}`, rel: "next" }] : [])] };
  },
};

/** SparkPost's grouped metrics (by domain, campaign…): summed, then ordered by `order_by` (else the first metric) and cut to `limit`. */
function topRows(merged: unknown, q: URLSearchParams): unknown {
  const metric = q.get("order_by") || (q.get("metrics") ?? "").split(",")[0]!.trim();
  const rows = [...results(merged)].sort((a, b) => num(b, metric) - num(a, metric));
  return { ...(merged as Obj), results: rows.slice(0, between(q, ["limit"], 1000, 10_000)) };
}

/** A path into nested objects; undefined where one is missing. */
const at = (x: unknown, ...names: string[]): unknown => names.reduce((v: unknown, n) => (typeof v === "object" && v !== null ? (v as Obj)[n] : undefined), x);

/** SparkPost's account with `include=usage`: this node's answer (account, windows), each window's `used` added over the zones. */
function accountUsage(bodies: unknown[]): unknown {
  const first = bodies[0] as Obj;
  const usage = at(first, "results", "usage") as Obj | undefined;
  if (!usage) return first;
  const used = (window: string) => bodies.reduce((n: number, b) => n + Number(at(b, "results", "usage", window, "used") ?? 0), 0);
  const summed = Object.fromEntries(Object.entries(usage).map(([k, v]) =>
    [k, typeof v === "object" && v !== null && "used" in v ? { ...(v as Obj), used: used(k) } : v]));
  return { ...first, results: { ...(first.results as Obj), usage: summed } };
}

/** The console's queue page: waiting recipients per destination, counts added, the earliest times, busiest first. */
function queueRows(bodies: unknown[]): unknown {
  const by = new Map<string, Obj>();
  for (const row of bodies.flatMap(array) as Obj[]) {
    const d = by.get(str(row, "destination"));
    if (!d) { by.set(str(row, "destination"), { ...row }); continue; }
    d.queued = num(d, "queued") + num(row, "queued");
    d.deferred = num(d, "deferred") + num(row, "deferred");
    d.oldestAt = Math.min(num(d, "oldestAt"), num(row, "oldestAt"));
    d.nextAttemptAt = Math.min(num(d, "nextAttemptAt"), num(row, "nextAttemptAt"));
    d.lastResponse ??= row.lastResponse;
  }
  return [...by.values()].sort((a, b) => num(b, "queued") + num(b, "deferred") - num(a, "queued") - num(a, "deferred"));
}

export const FANOUT_ROUTES: FanoutRoute[] = [
  { surface: "mailgun", path: /^\/v3\/stats\/total$/, merge: { kind: "sum" } },
  { surface: "sendgrid", path: /^\/v3\/suppression\/[^/]+(\/[^/]+)?$/, merge: sendgridSuppressions },
  { surface: "sendgrid", path: /^\/v3\/asm\/suppressions\/global\/[^/]+$/, merge: { kind: "lookup", isEmpty: (b) => !field(b, "recipient_email") } },
  { surface: "sendgrid", path: /^\/v3\/(stats|categories\/stats)$/, merge: { kind: "sum" } },
  { surface: "sparkpost", path: /^\/api\/v1\/events\/message$/, merge: sparkpostEvents },
  { surface: "sparkpost", path: /^\/api\/v1\/suppression-list$/, merge: sparkpostSuppressions },
  { surface: "sparkpost", path: /^\/api\/v1\/suppression-list\/summary$/, merge: { kind: "sum" } },
  { surface: "sparkpost", path: /^\/api\/v1\/suppression-list\/[^/]+$/, merge: { ...sparkpostSuppressions, paging: undefined } },
  { surface: "sparkpost", path: /^\/api\/v1\/metrics\/deliverability(\/time-series)?$/, merge: { kind: "sum" } },
  { surface: "sparkpost", path: /^\/api\/v1\/metrics\/deliverability\/[a-z-]+$/, merge: { kind: "sum", finish: topRows } },
  { surface: "sparkpost", path: /^\/api\/v1\/transmissions$/, merge: { kind: "list", items: results,
    order: (a, b) => str(b, "id").localeCompare(str(a, "id")), build: (page) => ({ results: page }) } },
  { surface: "sparkpost", path: /^\/api\/v1\/transmissions\/[^/]+$/, merge: { kind: "lookup", isEmpty: () => false } },
  // The account itself is control data (served here); only its usage counters are every zone's sends.
  { surface: "sparkpost", path: /^\/api\/v1\/account$/, when: (q) => q.getAll("include").at(-1) === "usage", merge: { kind: "reduce", reduce: accountUsage } },
  { surface: "console", path: /^\/ui\/api\/messages$/, merge: { kind: "list", items: array,
    order: (a, b) => num(b, "lastAt") - num(a, "lastAt"), build: (page) => page } },
  { surface: "console", path: /^\/ui\/api\/stats$/, merge: { kind: "sum", keep: ["domain", "step", "buckets"] } },
  { surface: "console", path: /^\/ui\/api\/queue$/, merge: { kind: "reduce", reduce: queueRows } },
  // Writes naming no domain: every zone does its part.
  { surface: "sendgrid", method: "DELETE", path: /^\/v3\/suppression\/[^/]+(\/[^/]+)?$/, merge: { kind: "everywhere" } },
  { surface: "sendgrid", method: "POST", path: /^\/v3\/asm\/suppressions\/global$/, merge: { kind: "everywhere" } },
  { surface: "sendgrid", method: "DELETE", path: /^\/v3\/asm\/suppressions\/global\/[^/]+$/, merge: { kind: "everywhere" } },
  { surface: "sparkpost", method: "PUT", path: /^\/api\/v1\/suppression-list$/, merge: { kind: "everywhere" } },
  { surface: "sparkpost", method: "DELETE", path: /^\/api\/v1\/suppression-list\/[^/]+$/, merge: { kind: "everywhere" } },
  { surface: "console", method: "POST", path: /^\/ui\/api\/queue\/(retry|purge)$/, merge: { kind: "everywhere", sum: true } },
];

/** The description of an account-wide listing, or null (served here as it is). */
export function fanoutRoute(surface: ZoneSurface, method: string, path: string, query: URLSearchParams): FanoutRoute | null {
  return FANOUT_ROUTES.find((r) => r.surface === surface && (r.method ?? "GET") === method && r.path.test(path) && (r.when?.(query) ?? true)) ?? null;
}

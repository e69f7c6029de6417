// How the answers of every zone to one account-wide listing become one answer in the surface's
// shape. Three kinds cover the listings: a list (items in one order, cut to one page by an
// offset or a cursor), a sum (counters added up, rows matched by their text fields), and a
// lookup (the first zone that has it). The per-route descriptions are in fanout-routes.ts.

type Json = unknown;
type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === "object" && x !== null && !Array.isArray(x);

/** Offset paging (`limit`, `offset`): each zone is asked for its first offset+limit items, the page cut from the merged order. */
export interface OffsetPaging { type: "offset"; limitParam: string; offsetParam: string; defaultLimit: number; maxLimit: number }

/**
 * Cursor paging: every zone is asked the same page after the same cursor (a position in the
 * listing's order, valid in every zone); the merged page is the first `limit` items, and the next
 * cursor is the last item's position. Items sharing a position stay on one page.
 */
export interface CursorPaging {
  type: "cursor";
  limit: (q: URLSearchParams) => number;
  /** The position of an item (what the next page's cursor names). */
  positionOf: (item: Json) => string;
  /** True when a zone said it has more after its page. */
  hasMore: (body: Json) => boolean;
}

export interface ListMerge {
  kind: "list";
  /** The items of one answer. */
  items: (body: Json) => Json[];
  /** The listing's order (the same every zone sorts by). */
  order: (a: Json, b: Json) => number;
  /** Items that are one entry (an address listed in two zones): the first in order is kept. */
  identity?: (item: Json) => string;
  paging?: OffsetPaging | CursorPaging;
  /** The merged answer: `first` is the local answer (its other fields), `next` the next page's cursor if any. */
  build: (page: Json[], ctx: { first: Json; bodies: Json[]; query: URLSearchParams; next: string | null }) => Json;
}

export interface SumMerge {
  kind: "sum";
  /** Top-level fields that are no counters (a step, bucket times): the local answer's are kept. */
  keep?: string[];
  /** After adding up: re-sort and cut rows (a top-N listing), given the request's query. */
  finish?: (merged: Json, query: URLSearchParams) => Json;
}

export interface LookupMerge {
  kind: "lookup";
  /** An answer that does not have it (`{}`, an empty list); a 404 counts as not having it too. */
  isEmpty: (body: Json) => boolean;
}

/**
 * A write that names no domain (an account key's "delete from every list", "retry this
 * destination"): done by every zone, this node first (its refusal stops it there). The answer is
 * this node's, or with `sum` the zones' JSON answers added up (counts of what each did).
 */
export interface EverywhereMerge { kind: "everywhere"; sum?: boolean }

/** Rows no generic rule fits (counts added, times taken at their minimum): the route's own function. */
export interface ReduceMerge { kind: "reduce"; reduce: (bodies: Json[]) => Json }

export type Merge = ListMerge | SumMerge | LookupMerge | EverywhereMerge | ReduceMerge;

/** One page of the merged list, and the cursor after it (cursor paging with more to come). */
export function mergeList(m: ListMerge, bodies: Json[], query: URLSearchParams): Json {
  let all = bodies.flatMap((b) => m.items(b)).sort(m.order);
  if (m.identity) {
    const seen = new Set<string>();
    all = all.filter((item) => { const id = m.identity!(item); return !seen.has(id) && Boolean(seen.add(id)); });
  }
  let page = all;
  let next: string | null = null;
  if (m.paging?.type === "offset") {
    const { offset, limit } = offsetWindow(m.paging, query);
    page = all.slice(offset, offset + limit);
  } else if (m.paging?.type === "cursor") {
    const p = m.paging;
    const limit = p.limit(query);
    let end = Math.min(limit, all.length);
    while (end > 0 && end < all.length && p.positionOf(all[end]) === p.positionOf(all[end - 1])) end++;
    page = all.slice(0, end);
    const more = all.length > end || bodies.some((b) => p.hasMore(b));
    next = more && page.length ? p.positionOf(page.at(-1)) : null;
  }
  return m.build(page, { first: bodies[0], bodies, query, next });
}

/** The page an offset-paged request asks for, read as the route itself reads it. */
export function offsetWindow(p: OffsetPaging, query: URLSearchParams): { offset: number; limit: number } {
  const limit = Math.min(Math.max(Math.trunc(Number(query.get(p.limitParam) ?? p.defaultLimit)) || p.defaultLimit, 1), p.maxLimit);
  const offset = Math.max(Math.trunc(Number(query.get(p.offsetParam) ?? 0)) || 0, 0);
  return { offset, limit };
}

/** Counters added up: numbers add, objects field by field, arrays row by row (rows matched by their text fields). */
export function sumJson(a: Json, b: Json): Json {
  if (typeof a === "number" && typeof b === "number") return a + b;
  if (Array.isArray(a) && Array.isArray(b)) {
    // A series of counters (one per bucket): added position by position.
    if (a.length === b.length && [...a, ...b].every((x) => typeof x === "number")) return a.map((x, i) => (x as number) + (b[i] as number));
    const out = [...a];
    const at = new Map(out.map((row, i) => [rowKey(row), i]));
    for (const row of b) {
      const i = at.get(rowKey(row));
      if (i === undefined) { at.set(rowKey(row), out.length); out.push(row); } else out[i] = sumJson(out[i], row);
    }
    return out;
  }
  if (isObj(a) && isObj(b)) {
    const out: Obj = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = k in a ? sumJson(a[k], v) : v;
    return out;
  }
  return a;
}

/** The answers added up, the `keep` fields taken from the first (local) one. */
export function sumAnswers(m: SumMerge, bodies: Json[]): Json {
  const summed = bodies.reduce((x, y) => sumJson(x, y));
  if (!m.keep || !isObj(summed) || !isObj(bodies[0])) return summed;
  const first = bodies[0];
  return { ...summed, ...Object.fromEntries(m.keep.filter((k) => k in first).map((k) => [k, first[k]])) };
}

/** A row's identity: its text fields (a date, a bucket's ts, a group's name), not its counters. */
function rowKey(row: Json): string {
  if (!isObj(row)) return JSON.stringify(row);
  return JSON.stringify(Object.entries(row).filter(([, v]) => typeof v === "string").sort(([x], [y]) => x.localeCompare(y)));
}

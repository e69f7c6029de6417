// GET /v3/{domain}/events: the query (begin, end, ascending, limit and every filter field of
// event-filter.ts) and the page tokens. A token is the whole query plus a cursor, base64url-encoded
// so it can be the last path segment mailgun.js takes from `paging.next`. The store narrows what it
// can (time, event types, one recipient, postern's own message id); the filters decide the rest.
import type { EventQuery } from "../../core/store-port.ts";
import { invalid } from "../../core/errors.ts";
import { parseYesNo, type Form } from "./form.ts";
import { parseDate } from "./model.ts";
import { FILTER_FIELDS, matches, parseFilter, termsOf, type ParsedFilters } from "./event-filter.ts";

export const DEFAULT_EVENT_LIMIT = 100;
export const MAX_EVENT_LIMIT = 300;

/** Mailgun event names → native types. */
const TYPES_BY_NAME: Record<string, string[]> = {
  accepted: ["accepted"], delivered: ["delivered"], failed: ["failed", "deferred"], opened: ["opened"], clicked: ["clicked"],
  unsubscribed: ["unsubscribed"], complained: ["complained"], rejected: ["rejected"], stored: [],
};
const ALL_TYPES = [...new Set(Object.values(TYPES_BY_NAME).flat())];

/** A page request: the filters, its direction, the cursor and whether the page is read backwards. */
export interface EventPage {
  q: Omit<EventQuery, "cursor" | "domain">;
  /** The filter expressions as given (field → expression), matched against each item. */
  f?: Record<string, string>;
  cursor?: string;
  /** Read against the query's direction (previous / last), then reversed for display. */
  isReversed: boolean;
}

/** The native types an `event` expression can match (any expression: event is single-valued). */
function typesOf(expr: string | undefined, severity: string | undefined): string[] | undefined {
  let types: string[] | undefined;
  if (expr?.trim()) {
    const node = parseFilter(expr, "event");
    const unknown = termsOf(node).find((n) => !(n.toLowerCase() in TYPES_BY_NAME));
    if (unknown) throw invalid(`unsupported event filter "${unknown}"`, "event");
    types = Object.keys(TYPES_BY_NAME).filter((name) => matches(node, (t) => t.toLowerCase() === name)).flatMap((n) => TYPES_BY_NAME[n]!);
  }
  if (severity?.trim() === "permanent") types = (types ?? ALL_TYPES).filter((t) => t !== "deferred");
  if (severity?.trim() === "temporary") types = (types ?? ALL_TYPES).filter((t) => t !== "failed");
  return types;
}

/** A single plain value (no operators), which the store can look up directly. */
const single = (expr: string | undefined) => (expr && /^[^\s()"]+$/.test(expr.trim()) && !/^(NOT|AND|OR)$/i.test(expr.trim()) ? expr.trim() : undefined);

/** The filters of `page`, parsed (400 for one that does not read). */
export function filtersOf(page: EventPage): ParsedFilters {
  return Object.fromEntries(Object.entries(page.f ?? {}).map(([k, v]) => [k, parseFilter(v, k)]));
}

/** postern's own message id in a Message-ID it made (`<id@host>`); a custom Message-ID names none. */
const POSTERN_ID = /^[0-9a-z]{20}$/;
const messageIdOf = (value: string | undefined) => {
  const local = value?.trim().replace(/^<|>$/g, "").split("@")[0];
  return local && POSTERN_ID.test(local) ? local : undefined;
};

/** The first page of the query in `form`. */
export function readEventQuery(form: Form): EventPage {
  const f = Object.fromEntries(FILTER_FIELDS.filter((k) => form.get(k)?.trim()).map((k) => [k, form.get(k)!.trim()]));
  let begin = parseDate(form.get("begin")) ?? undefined;
  let end = parseDate(form.get("end")) ?? undefined;
  let ascending = parseYesNo(form.get("ascending")) ?? false;
  if (begin !== undefined && end !== undefined) {
    // Mailgun: the order of begin and end gives the direction.
    ascending = begin <= end;
    if (begin > end) [begin, end] = [end, begin];
  }
  const limit = Math.min(Math.max(Math.trunc(Number(form.get("limit") ?? DEFAULT_EVENT_LIMIT)) || DEFAULT_EVENT_LIMIT, 1), MAX_EVENT_LIMIT);
  const types = typesOf(form.get("event"), form.get("severity"));
  const recipient = single(form.get("recipient"));
  const messageId = messageIdOf(single(form.get("message-id")));
  const q = { limit, ascending, ...(begin !== undefined && { begin }), ...(end !== undefined && { end }), ...(types && { types }),
    ...(recipient && { recipient }), ...(messageId && { messageId }) };
  const page: EventPage = { q, ...(Object.keys(f).length && { f }), isReversed: false };
  filtersOf(page); // a filter that does not read is a 400 now, not on the next page
  return page;
}

export const encodePageToken = (page: EventPage) => Buffer.from(JSON.stringify(page)).toString("base64url");

export function decodePageToken(token: string): EventPage {
  try {
    const page = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as EventPage;
    if (page && typeof page.q === "object" && typeof page.q.limit === "number") return page;
  } catch { /* reported below */ }
  throw invalid("invalid page token", "page");
}

/** The four links around a page of events with ids `ids` (in display order). */
export function eventPageLinks(base: string, page: EventPage, ids: string[]) {
  const link = (p: EventPage) => `${base}/${encodePageToken(p)}`;
  return {
    first: link({ q: page.q, f: page.f, isReversed: false }),
    last: link({ q: page.q, f: page.f, isReversed: true }),
    next: link({ q: page.q, f: page.f, cursor: ids.at(-1) ?? page.cursor, isReversed: false }),
    previous: link({ q: page.q, f: page.f, cursor: ids[0] ?? page.cursor, isReversed: true }),
  };
}

// GET /v3/{domain}/events: the query (begin, end, ascending, limit, event, severity, recipient,
// message-id) and the page tokens. A token is the whole query plus a cursor, base64url-encoded
// so it can be the last path segment mailgun.js takes from `paging.next`.
import type { EventQuery } from "../../store/store.ts";
import { invalid } from "../../core/errors.ts";
import { parseYesNo, type Form } from "./form.ts";
import { parseDate } from "./model.ts";

export const DEFAULT_EVENT_LIMIT = 100;
export const MAX_EVENT_LIMIT = 300;

/** Mailgun event names → native types. */
const TYPES_BY_NAME: Record<string, string[]> = {
  accepted: ["accepted"], delivered: ["delivered"], failed: ["failed", "deferred"], opened: ["opened"], clicked: ["clicked"],
  unsubscribed: ["unsubscribed"], complained: ["complained"], rejected: ["rejected"], stored: [],
};
const ALL_TYPES = [...new Set(Object.values(TYPES_BY_NAME).flat())];
const UNSUPPORTED_FILTERS = ["list", "attachment", "from", "subject", "to", "size", "recipients", "tags"];

/** A page request: the filters, its direction, the cursor and whether the page is read backwards. */
export interface EventPage {
  q: Omit<EventQuery, "cursor" | "domain">;
  cursor?: string;
  /** Read against the query's direction (previous / last), then reversed for display. */
  isReversed: boolean;
}

/** `event` filter expressions: names joined by OR (or spaces); `NOT name` excludes. */
function typesOf(expr: string | undefined, severity: string | undefined): string[] | undefined {
  let types: string[] | undefined;
  if (expr?.trim()) {
    const tokens = expr.replace(/[()]/g, " ").split(/\s+/).filter((t) => t && t.toUpperCase() !== "OR");
    const negated = tokens[0]?.toUpperCase() === "NOT";
    const names = negated ? tokens.slice(1) : tokens;
    const unknown = names.find((n) => !(n.toLowerCase() in TYPES_BY_NAME));
    if (unknown) throw invalid(`unsupported event filter "${unknown}"`, "event");
    const picked = names.flatMap((n) => TYPES_BY_NAME[n.toLowerCase()]!);
    types = negated ? ALL_TYPES.filter((t) => !picked.includes(t)) : picked;
  }
  if (severity === "permanent") types = (types ?? ALL_TYPES).filter((t) => t !== "deferred");
  if (severity === "temporary") types = (types ?? ALL_TYPES).filter((t) => t !== "failed");
  return types;
}

/** The Message-ID header value (with or without <>) → postern's message id (its local part). */
const messageIdOf = (value: string | undefined) => value?.trim().replace(/^<|>$/g, "").split("@")[0] || undefined;

/** The first page of the query in `form`. */
export function readEventQuery(form: Form): EventPage {
  const unsupported = UNSUPPORTED_FILTERS.find((f) => form.get(f) !== undefined);
  if (unsupported) throw invalid(`the "${unsupported}" filter is not supported by postern`, unsupported);
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
  const q = { limit, ascending, ...(begin !== undefined && { begin }), ...(end !== undefined && { end }), ...(types && { types }),
    ...(form.get("recipient") && { recipient: form.get("recipient")!.trim() }), ...(form.get("message-id") && { messageId: messageIdOf(form.get("message-id")) }) };
  return { q, isReversed: false };
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
    first: link({ q: page.q, isReversed: false }),
    last: link({ q: page.q, isReversed: true }),
    next: link({ q: page.q, cursor: ids.at(-1) ?? page.cursor, isReversed: false }),
    previous: link({ q: page.q, cursor: ids[0] ?? page.cursor, isReversed: true }),
  };
}

// The read side: stats (/v3/{domain}/stats/total, account-wide /v3/stats/total) and events
// (/v3/{domain}/events[/{page token}]). Account key only (policy.ts).
import type { SurfaceDeps } from "../deps.ts";
import type { MessageEvent } from "../../core/model.ts";
import { readForm, routeGroup } from "./form.ts";
import { accountOnly } from "./policy.ts";
import { countsBegin, readStatsQuery, toStatsResponse } from "./stats-mapper.ts";
import { decodePageToken, eventPageLinks, filtersOf, readEventQuery, type EventPage } from "./event-query.ts";
import { passes } from "./event-filter.ts";
import { toMailgunEvent, type MessageFacts } from "./event-mapper.ts";
import { principalOf } from "../context.ts";
import { readTenant } from "../../core/permissions.ts";

type Deps = Pick<SurfaceDeps, "activity" | "domains" | "now">;

/** Events read per round, and rounds per page, when filters are matched item by item. */
const SCAN_BATCH = 300;
const SCAN_ROUNDS = 50;

export function activityRoutes(deps: Deps) {
  async function stats(domain: string | null, request: Request) {
    if (domain) await deps.domains.require(domain);
    const q = readStatsQuery(await readForm(request), deps.now());
    // The account-wide total is the acting tenant's (the primary's without X-Mailgun-On-Behalf-Of).
    const counts = domain ? deps.activity.counts(domain, countsBegin(q), q.end) : deps.activity.tenantCounts(readTenant(principalOf(request)), countsBegin(q), q.end);
    return toStatsResponse(q, await counts);
  }

  /**
   * One page of events with the stored message of each (looked up once per message). With filters
   * the store is read in rounds, each item matched, until the page is full or SCAN_ROUNDS end.
   */
  async function events(domain: string, page: EventPage, request: Request) {
    const filters = filtersOf(page);
    const hasFilters = Object.keys(filters).length > 0;
    const ascending = page.isReversed ? !page.q.ascending : page.q.ascending;
    const facts = new Map<string, Promise<MessageFacts | null>>();
    const factsOf = (id: string) => facts.get(id) ?? facts.set(id, deps.activity.message(domain, id)).get(id)!;
    const found: { e: MessageEvent; item: ReturnType<typeof toMailgunEvent> }[] = [];
    let cursor = page.cursor;
    for (let round = 0; round < (hasFilters ? SCAN_ROUNDS : 1); round++) {
      const batch = await deps.activity.events(domain, { ...page.q, ascending, cursor, limit: hasFilters ? SCAN_BATCH : page.q.limit });
      for (const e of batch) {
        const item = toMailgunEvent(e, await factsOf(e.messageId));
        if (!hasFilters || passes(filters, item)) found.push({ e, item });
        cursor = e.id;
        if (found.length >= page.q.limit) break;
      }
      if (found.length >= page.q.limit || batch.length < SCAN_BATCH) break;
    }
    const list = page.isReversed ? found.reverse() : found;
    const url = new URL(request.url);
    const base = `${url.protocol}//${request.headers.get("host") ?? url.host}/v3/${domain}/events`;
    // An empty filtered page still moves on: the next one starts after what was read.
    const ids = list.length || !cursor ? list.map((x) => x.e.id) : [cursor];
    return { items: list.map((x) => x.item), paging: eventPageLinks(base, page, ids) };
  }

  return routeGroup()
    .get("/v3/stats/total", ({ request }) => stats(null, request), { permission: accountOnly("stats.read") })
    .get("/v3/:domain/stats/total", ({ params, request }) => stats(params.domain, request), { permission: accountOnly("stats.read") })
    .get("/v3/:domain/events", async ({ params, request }) => {
      return events(params.domain, readEventQuery(await readForm(request)), request);
    }, { permission: accountOnly("events.read") })
    .get("/v3/:domain/events/:token", ({ params, request }) => {
      return events(params.domain, decodePageToken(params.token), request);
    }, { permission: accountOnly("events.read") });
}

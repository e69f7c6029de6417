// The read side: stats (/v3/{domain}/stats/total, account-wide /v3/stats/total) and events
// (/v3/{domain}/events[/{page token}]). Account key only (policy.ts).
import type { SurfaceDeps } from "../deps.ts";
import type { MessageEvent } from "../../core/model.ts";
import { readForm, routeGroup } from "./form.ts";
import { accountOnly } from "./policy.ts";
import { countsBegin, readStatsQuery, toStatsResponse } from "./stats-mapper.ts";
import { decodePageToken, eventPageLinks, readEventQuery, type EventPage } from "./event-query.ts";
import { toMailgunEvent, type MessageFacts } from "./event-mapper.ts";

type Deps = Pick<SurfaceDeps, "activity" | "domains" | "now">;

export function activityRoutes(deps: Deps) {
  async function stats(domain: string | null, request: Request) {
    if (domain) await deps.domains.require(domain);
    const q = readStatsQuery(await readForm(request), deps.now());
    return toStatsResponse(q, await deps.activity.counts(domain, countsBegin(q), q.end));
  }

  /** One page of events with the stored message of each (looked up once per message). */
  async function events(domain: string, page: EventPage, request: Request) {
    const found = await deps.activity.events(domain, { ...page.q, ascending: page.isReversed ? !page.q.ascending : page.q.ascending, cursor: page.cursor });
    const list: MessageEvent[] = page.isReversed ? found.reverse() : found;
    const facts = new Map<string, Promise<MessageFacts | null>>();
    const factsOf = (id: string) => facts.get(id) ?? facts.set(id, deps.activity.message(domain, id)).get(id)!;
    const items = await Promise.all(list.map(async (e) => toMailgunEvent(e, await factsOf(e.messageId))));
    const url = new URL(request.url);
    const base = `${url.protocol}//${request.headers.get("host") ?? url.host}/v3/${domain}/events`;
    return { items, paging: eventPageLinks(base, page, list.map((e) => e.id)) };
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

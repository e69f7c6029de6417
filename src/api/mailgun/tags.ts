// Mailgun's tags API (/v3/{domain}/tags…): the tags the domain's events carry, with a description
// of their own, paged by tag name; a tag's stats are the domain stats of the events carrying it.
// Account key only (policy.ts), as every Mailgun read.
import type { SurfaceDeps } from "../deps.ts";
import type { TagInfo } from "../../core/store-port.ts";
import { notFound } from "../../core/errors.ts";
import { readForm, routeGroup } from "./form.ts";
import { accountOnly } from "./policy.ts";
import { countsBegin, readStatsQuery, toStatsResponse } from "./stats-mapper.ts";

type Deps = Pick<SurfaceDeps, "activity" | "domains" | "now">;

// Tags are read off the events; describing or deleting one changes the domain's data.
const READ = accountOnly("events.read");
const MANAGE = accountOnly("domains.manage");
const STATS = accountOnly("stats.read");
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;
const ZERO = { clicked: 0, complained: 0, opened: 0, unique_clicked: 0, unique_opened: 0, unsubscribed: 0 };

const item = (t: TagInfo) => ({ tag: t.tag, description: t.description, "first-seen": new Date(t.firstSeen).toISOString(), "last-seen": new Date(t.lastSeen).toISOString() });

/** One page of tags: after (`page=next`) or before (`page=prev`) the tag named, by name. */
function pageOf(all: TagInfo[], form: Awaited<ReturnType<typeof readForm>>) {
  const limit = Math.min(Math.max(Math.trunc(Number(form.get("limit") ?? DEFAULT_LIMIT)) || DEFAULT_LIMIT, 1), MAX_LIMIT);
  const dir = form.get("page") ?? "first";
  const pivot = form.get("tag") ?? "";
  if (dir === "next") return { list: all.filter((t) => t.tag > pivot).slice(0, limit), limit };
  if (dir === "prev") return { list: all.filter((t) => t.tag < pivot).slice(-limit), limit };
  if (dir === "last") return { list: all.slice(-limit), limit };
  return { list: all.slice(0, limit), limit };
}

export function tagRoutes(deps: Deps) {
  async function tagOf(domain: string, tag: string): Promise<TagInfo> {
    const found = (await deps.activity.tags(domain)).find((t) => t.tag === tag);
    if (!found) throw notFound("tag not found");
    return found;
  }
  const domainOf = async (_request: Request, domain: string) => {
    await deps.domains.require(domain);
    return domain.toLowerCase();
  };

  return routeGroup()
    .get("/v3/:domain/tags", async ({ params, request }) => {
      const domain = await domainOf(request, params.domain);
      const { list, limit } = pageOf(await deps.activity.tags(domain), await readForm(request));
      const url = new URL(request.url);
      const base = `${url.protocol}//${request.headers.get("host") ?? url.host}/v3/${domain}/tags?limit=${limit}`;
      const link = (page: string, tag = "") => `${base}&page=${page}${tag ? `&tag=${encodeURIComponent(tag)}` : ""}`;
      return { items: list.map(item), paging: { first: link("first"), last: link("last"),
        next: link("next", list.at(-1)?.tag ?? ""), previous: link("prev", list[0]?.tag ?? "") } };
    }, { permission: READ })
    .get("/v3/:domain/tags/:tag", async ({ params, request }) => item(await tagOf(await domainOf(request, params.domain), params.tag)), { permission: READ })
    .put("/v3/:domain/tags/:tag", async ({ params, request }) => {
      const domain = await domainOf(request, params.domain);
      const tag = params.tag;
      await tagOf(domain, tag);
      await deps.activity.putTagInfo(domain, tag, { description: (await readForm(request)).get("description") ?? "" });
      return { message: "Tag updated" };
    }, { permission: MANAGE })
    .delete("/v3/:domain/tags/:tag", async ({ params, request }) => {
      const domain = await domainOf(request, params.domain);
      const tag = params.tag;
      await tagOf(domain, tag);
      await deps.activity.putTagInfo(domain, tag, { deletedAt: deps.now() });
      return { message: "Tag deleted" };
    }, { permission: MANAGE })
    .get("/v3/:domain/tags/:tag/stats", async ({ params, request }) => {
      const domain = await domainOf(request, params.domain);
      const info = await tagOf(domain, params.tag);
      const q = readStatsQuery(await readForm(request), deps.now());
      return { tag: info.tag, description: info.description, ...toStatsResponse(q, await deps.activity.counts(domain, countsBegin(q), q.end, info.tag)) };
    }, { permission: STATS })
    // postern keeps no geography or device data of the events: the aggregates are empty.
    .get("/v3/:domain/tags/:tag/stats/aggregates/countries", async ({ params, request }) =>
      ({ tag: (await tagOf(await domainOf(request, params.domain), params.tag)).tag, country: {} }), { permission: STATS })
    .get("/v3/:domain/tags/:tag/stats/aggregates/providers", async ({ params, request }) =>
      ({ tag: (await tagOf(await domainOf(request, params.domain), params.tag)).tag, provider: {} }), { permission: STATS })
    .get("/v3/:domain/tags/:tag/stats/aggregates/devices", async ({ params, request }) =>
      ({ tag: (await tagOf(await domainOf(request, params.domain), params.tag)).tag,
        device: { desktop: ZERO, mobile: ZERO, tablet: ZERO, unknown: ZERO } }), { permission: STATS });
}

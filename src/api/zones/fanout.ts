// Account-wide listings of zone data (no domain named: an account key's suppressions, events,
// stats, metrics) answered for every zone: the node serves its own zones' part, asks each zone
// served elsewhere the same request (method, path, query, key or session; the loop-guard header
// makes that zone answer from its own zones only), and merges the answers in the surface's shape
// (merge.ts, by the route's description in fanout-routes.ts). The local part is asked first, so a
// request this node refuses (a bad query, a signed-out session) is refused before anything leaves.
// A zone that cannot answer makes the whole answer the surface's 503/504: a listing silently
// missing a zone would look complete and be wrong.
import type { RemoteZoneRef } from "../../core/zones.ts";
import { json } from "../errors.ts";
import { gatewayError, type ZoneSurface } from "./errors.ts";
import { forwardToZone, isProxyFailure, type ForwardOptions } from "./proxy.ts";
import { mergeList, offsetWindow, sumAnswers, sumJson, type Merge } from "./merge.ts";
import { checkBody } from "../request-guard.ts";

/** Serves a request at this node (its own zones), as the surface would without zones elsewhere. */
export type ServeHere = (req: Request) => Promise<Response>;

export interface FanoutContext {
  surface: ZoneSurface;
  zones: RemoteZoneRef[];
  forward: ForwardOptions;
  serveHere: ServeHere;
}

/** A zone's answers to the requests one listing needed (several pages for an offset page), or the response to give instead. */
type Gathered = { bodies: unknown[] } | { res: Response };
type Ask = (req: Request) => Promise<Response | { res: Response }>;

export async function fanOut(req: Request, merge: Merge, ctx: FanoutContext): Promise<Response> {
  const url = new URL(req.url);
  if (merge.kind === "lookup") return lookup(req, merge, ctx);
  if (merge.kind === "everywhere") return everywhere(req, merge, ctx);
  const here: Ask = (r) => ctx.serveHere(r);
  const local = await gather(merge, url, req.headers, here, true);
  if ("res" in local) return local.res;
  const remote = await Promise.all(ctx.zones.map((zone) => gather(merge, url, req.headers, askZone(zone, ctx), false)));
  const refused = remote.find((g): g is { res: Response } => "res" in g);
  if (refused) return refused.res;
  const answers = [local, ...remote] as { bodies: unknown[] }[];
  return json(200, combine(merge, answers, url.searchParams));
}

/** The local answer when it has it; else the first zone's that does; else the local answer (its 404 or empty shape). */
async function lookup(req: Request, merge: Extract<Merge, { kind: "lookup" }>, ctx: FanoutContext): Promise<Response> {
  const has = async (res: Response) => res.ok && !merge.isEmpty(await res.clone().json().catch(() => ({})));
  const local = await ctx.serveHere(new Request(req.url, { method: "GET", headers: req.headers }));
  if ((!local.ok && local.status !== 404) || (await has(local))) return local;
  const answers = await Promise.all(ctx.zones.map((zone) => askZone(zone, ctx)(new Request(req.url, { method: "GET", headers: req.headers }))));
  for (const a of answers) if (!(a instanceof Response)) return a.res;
  for (const a of answers as Response[]) if (await has(a)) return a;
  return local;
}

/**
 * A write for every zone: this node's zones first, then every other zone with the same body. A zone
 * that cannot be reached after this node did its part gets the surface's 503 saying so: these
 * writes (deletes, retries, purges, adding to a list) can simply be repeated.
 */
async function everywhere(req: Request, merge: Extract<Merge, { kind: "everywhere" }>, ctx: FanoutContext): Promise<Response> {
  const body = req.method === "GET" || req.method === "HEAD" ? undefined : new Uint8Array(await (await checkBody(req, req.url)).arrayBuffer());
  const make = () => new Request(req.url, { method: req.method, headers: req.headers, body });
  const local = await ctx.serveHere(make());
  if (!local.ok) return local;
  const answers = await Promise.all(ctx.zones.map((zone) => askZone(zone, ctx, "done in this node's zones, not in that one: repeat the request")(make())));
  for (const a of answers) if (!(a instanceof Response)) return a.res;
  const failed = (answers as Response[]).find((a) => !a.ok);
  if (failed) return failed;
  if (!merge.sum) return local;
  const bodies = await Promise.all([local, ...(answers as Response[])].map((a) => a.json().catch(() => ({}))));
  return json(local.status, bodies.reduce((x, y) => sumJson(x, y)));
}

function askZone(zone: RemoteZoneRef, ctx: FanoutContext, consequence = "this account-wide listing needs every zone: try again later"): Ask {
  return async (r) => {
    const answer = await forwardToZone(r, zone, ctx.forward);
    if (!isProxyFailure(answer)) return answer;
    const message = answer.kind === "timeout"
      ? `zone ${zone.zone} did not answer in time; ${consequence}`
      : `zone ${zone.zone} cannot be reached; ${consequence}`;
    return { res: gatewayError(ctx.surface, answer.kind === "timeout" ? 504 : 503, message) };
  };
}

/** One zone's answers: one request, or for offset paging its first offset+limit items page by page. */
async function gather(merge: Merge, url: URL, headers: Headers, ask: Ask, isLocal: boolean): Promise<Gathered> {
  const paging = merge.kind === "list" ? merge.paging : undefined;
  if (paging?.type !== "offset") return one(ask, url, headers, merge, isLocal);
  const { offset, limit } = offsetWindow(paging, url.searchParams);
  const bodies: unknown[] = [];
  for (let from = 0, want = offset + limit; want > 0;) {
    const page = new URL(url);
    page.searchParams.set(paging.offsetParam, String(from));
    page.searchParams.set(paging.limitParam, String(Math.min(want, paging.maxLimit)));
    const got = await one(ask, page, headers, merge, isLocal);
    if ("res" in got) return got;
    bodies.push(got.bodies[0]);
    const n = merge.kind === "list" ? merge.items(got.bodies[0]).length : 0;
    if (n < Math.min(want, paging.maxLimit)) break;
    from += n;
    want -= n;
  }
  return { bodies };
}

async function one(ask: Ask, url: URL, headers: Headers, merge: Merge, isLocal: boolean): Promise<Gathered> {
  const res = await ask(new Request(url.href, { method: "GET", headers }));
  if (!(res instanceof Response)) return res;
  if (!res.ok) return { res };
  const body = await res.json().catch(() => undefined);
  if (body === undefined) {
    return isLocal ? { res: new Response(null, { status: 500 }) } : { res: json(502, { message: "a zone answered an account-wide listing without JSON" }) };
  }
  return { bodies: [body] };
}

function combine(merge: Merge, answers: { bodies: unknown[] }[], query: URLSearchParams): unknown {
  switch (merge.kind) {
    case "list": {
      // Offset pages of one zone are one list; the local answer comes first (its other fields are kept).
      const bodies = answers.map((a) => a.bodies.length > 1 ? a.bodies.reduce((x, y) => concatItems(merge.items, x, y)) : a.bodies[0]);
      return mergeList(merge, bodies, query);
    }
    case "sum": {
      const summed = sumAnswers(merge, answers.map((a) => a.bodies[0]));
      return merge.finish ? merge.finish(summed, query) : summed;
    }
    case "reduce": return merge.reduce(answers.map((a) => a.bodies[0]));
    case "lookup": case "everywhere": return answers[0]!.bodies[0]; // answered by lookup() and everywhere() before
  }
}

/** Two pages of one zone as one answer: only bare-array answers are offset-paged (SendGrid's lists). */
function concatItems(items: (b: unknown) => unknown[], a: unknown, b: unknown): unknown {
  return Array.isArray(a) ? [...items(a), ...items(b)] : a;
}

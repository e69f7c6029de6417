// Mailgun's priority waterfall for one received recipient: routes in priority order (smaller
// first, then oldest first); every matching route's actions run; `stop()` ends the waterfall;
// `catch_all()` matches only when no earlier route did. Pure.
import { fillCaptures, parseAction, parseExpression, type Action, type Filter } from "./expression.ts";

export interface InboundRoute {
  id: string;
  priority: number;
  description: string;
  expression: string;
  actions: string[];
  createdAt: number;
}

export type RouteAction = Exclude<Action, { kind: "stop" }> & { routeId: string };

interface Compiled { route: InboundRoute; filters: Filter[]; actions: Action[] }

const cache = new Map<string, Compiled>();

function compile(route: InboundRoute): Compiled {
  const key = `${route.id}\u0000${route.expression}\u0000${route.actions.join("\u0000")}`;
  let c = cache.get(key);
  if (!c) {
    if (cache.size > 10_000) cache.clear();
    c = { route, filters: parseExpression(route.expression), actions: route.actions.map(parseAction) };
    cache.set(key, c);
  }
  return c;
}

export function sortRoutes(routes: InboundRoute[]): InboundRoute[] {
  return [...routes].sort((a, b) => a.priority - b.priority || a.createdAt - b.createdAt || a.id.localeCompare(b.id));
}

type Captures = { groups: string[]; named: Record<string, string> };
type HeaderReader = (name: string) => string[];
type HeaderFilter = Extract<Filter, { kind: "header" }>;

function matchFilters(filters: Filter[], recipient: string, matchHeader: (f: HeaderFilter) => RegExpExecArray | null): Captures | null {
  const captures: Captures = { groups: [], named: {} };
  const take = (m: RegExpExecArray) => {
    captures.groups.push(...m.slice(1).map((g) => g ?? ""));
    Object.assign(captures.named, m.groups ?? {});
  };
  for (const f of filters) {
    if (f.kind === "recipient") {
      const m = f.re.exec(recipient);
      if (!m) return null;
      take(m);
    } else if (f.kind === "header") {
      const m = matchHeader(f);
      if (!m) return null;
      take(m);
    }
  }
  return captures;
}

/**
 * The routes of one message, asked for each of its recipients: sorted and compiled once, and each header filter
 * matched once, since its answer depends on the message alone (up to 1000 recipients times tens of thousands of
 * header fields a stranger chose). Routes that no longer parse are skipped.
 */
export function routerFor(routes: InboundRoute[], header: HeaderReader): (recipient: string) => RouteAction[] {
  const compiled = sortRoutes(routes).flatMap((route) => { try { return [compile(route)]; } catch { return []; } });
  const headerMatches = new Map<HeaderFilter, RegExpExecArray | null>();
  const matchHeader = (f: HeaderFilter) => {
    if (!headerMatches.has(f)) headerMatches.set(f, header(f.name).map((v) => f.re.exec(v)).find((x) => x) ?? null);
    return headerMatches.get(f)!;
  };
  return (recipient) => {
    const out: RouteAction[] = [];
    let matched = false;
    for (const c of compiled) {
      const captures = c.filters[0]?.kind === "catch_all" ? (matched ? null : { groups: [], named: {} }) : matchFilters(c.filters, recipient, matchHeader);
      if (!captures) continue;
      matched = true;
      let stop = false;
      for (const a of c.actions) {
        if (a.kind === "stop") stop = true;
        else if (a.kind === "forward") out.push({ kind: "forward", destination: fillCaptures(a.destination, captures), routeId: c.route.id });
        else out.push({ kind: "store", notify: a.notify ? fillCaptures(a.notify, captures) : null, routeId: c.route.id });
      }
      if (stop) break;
    }
    return out;
  };
}

/** What the routes do with one recipient of a message, in order. */
export function routeRecipient(routes: InboundRoute[], recipient: string, header: HeaderReader): RouteAction[] {
  return routerFor(routes, header)(recipient);
}

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

// A header filter's match depends on the message alone, so it is worked out once per message (per
// reader), not again for each of its recipients: up to 1000 recipients times tens of thousands of
// header fields a stranger chose.
const headerMatches = new WeakMap<HeaderReader, Map<Filter, RegExpExecArray | null>>();

function matchHeader(f: Extract<Filter, { kind: "header" }>, header: HeaderReader): RegExpExecArray | null {
  let known = headerMatches.get(header);
  if (!known) headerMatches.set(header, (known = new Map()));
  if (!known.has(f)) known.set(f, header(f.name).map((v) => f.re.exec(v)).find((x) => x) ?? null);
  return known.get(f)!;
}

function matchFilters(filters: Filter[], recipient: string, header: HeaderReader): Captures | null {
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
      const m = matchHeader(f, header);
      if (!m) return null;
      take(m);
    }
  }
  return captures;
}

/**
 * What the routes do with one recipient, in order. Routes that no longer parse are skipped.
 * `header` reads one message's fields: passing the same reader for each of its recipients has its
 * header filters matched once.
 */
export function routeRecipient(routes: InboundRoute[], recipient: string, header: HeaderReader): RouteAction[] {
  const out: RouteAction[] = [];
  let matched = false;
  for (const route of sortRoutes(routes)) {
    let c: Compiled;
    try { c = compile(route); } catch { continue; }
    const captures = c.filters[0]?.kind === "catch_all" ? (matched ? null : { groups: [], named: {} }) : matchFilters(c.filters, recipient, header);
    if (!captures) continue;
    matched = true;
    let stop = false;
    for (const a of c.actions) {
      if (a.kind === "stop") stop = true;
      else if (a.kind === "forward") out.push({ kind: "forward", destination: fillCaptures(a.destination, captures), routeId: route.id });
      else out.push({ kind: "store", notify: a.notify ? fillCaptures(a.notify, captures) : null, routeId: route.id });
    }
    if (stop) break;
  }
  return out;
}

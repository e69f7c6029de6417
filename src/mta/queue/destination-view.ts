// One view of the destinations for `postern queue destinations`, the console's Queue page and
// /metrics: what every node's scheduler published (in flight, concurrency, suspension, last
// throttle reply) joined with the waiting recipients per key from the store. Works while the
// server runs and while it does not (then nothing is in flight and the last published state shows).
import type { Store } from "../../core/store-port.ts";
import type { DestinationSnapshot } from "../../core/destination-store.ts";
import type { DestinationView } from "../../core/queue-admin.ts";
import { destinationOf } from "../shaping/destination.ts";
import type { Shaping } from "../shaping/rules.ts";
import type { Metrics } from "../../metrics.ts";

/** A node's published state older than this is a stopped node's: nothing of it is in flight. */
const FRESH_MS = 10_000;

export interface DestinationViewDeps { store: Store; shaping: Shaping; routes: Readonly<Record<string, string>>; now: () => number }

export async function destinationView(deps: DestinationViewDeps): Promise<DestinationView[]> {
  const now = deps.now();
  const latest = new Map<string, { owner: string; updatedAt: number; snapshot: DestinationSnapshot }>();
  const waiting: { key: string; count: number }[] = [];
  for (const zone of deps.store.zoneNames()) {
    const z = deps.store.zone(zone);
    for (const p of await z.publishedDestinations()) {
      const id = `${p.owner}\u0000${p.snapshot.name}`;
      if ((latest.get(id)?.updatedAt ?? -1) < p.updatedAt) latest.set(id, p);
    }
    waiting.push(...await z.waitingByKey());
  }
  const out = new Map<string, DestinationView>();
  const keyOwner = new Map<string, string>();
  const row = (name: string, provider: string | null, max: number): DestinationView => {
    let v = out.get(name);
    if (!v) out.set(name, (v = { name, provider, waiting: 0, in_flight: 0, concurrency: 0, max_concurrency: max, suspended_until: null, last_throttle: null, mx: [] }));
    return v;
  };
  const newestFirst = [...latest.values()].sort((a, b) => b.updatedAt - a.updatedAt);
  const hasFresh = new Set(newestFirst.filter((p) => now - p.updatedAt <= FRESH_MS).map((p) => p.snapshot.name));
  const seen = new Set<string>();
  for (const { updatedAt, snapshot: s } of newestFirst) {
    const v = row(s.name, s.provider, s.maxConcurrency);
    for (const k of s.keys) if (!keyOwner.has(k)) keyOwner.set(k, s.name);
    if (now - updatedAt <= FRESH_MS) {
      // Nodes sharing a database each run their own window: the destination's is their sum.
      v.in_flight += s.inFlight;
      v.concurrency += s.concurrency;
    } else if (!hasFresh.has(s.name) && !seen.has(s.name)) v.concurrency = s.concurrency; // no node runs it now: the last state
    if (s.suspendedUntil !== null && s.suspendedUntil > now && (v.suspended_until === null || Date.parse(v.suspended_until) < s.suspendedUntil)) {
      v.suspended_until = new Date(s.suspendedUntil).toISOString();
    }
    if (v.last_throttle === null && s.lastThrottle) v.last_throttle = s.lastThrottle;
    for (const [host, tls_policy] of Object.entries(s.tlsPolicies ?? {})) if (!v.mx.some((m) => m.host === host)) v.mx.push({ host, tls_policy });
    seen.add(s.name);
  }
  for (const { key, count } of waiting) {
    const name = keyOwner.get(key);
    if (name) { out.get(name)!.waiting += count; continue; }
    const d = destinationOf(key, [], deps.routes, deps.shaping.providers, deps.shaping.defaults);
    const v = row(d.name, d.provider, d.limits.connections);
    v.waiting += count;
  }
  return [...out.values()].sort((a, b) => b.waiting - a.waiting || a.name.localeCompare(b.name));
}

/** Gauges per destination on /metrics, all read from one view per scrape. */
export function registerDestinationMetrics(metrics: Metrics, view: () => Promise<DestinationView[]>, now: () => number) {
  let cached: { at: number; rows: Promise<DestinationView[]> } | null = null;
  const rows = () => {
    if (!cached || now() - cached.at > 1_000) cached = { at: now(), rows: view() };
    return cached.rows;
  };
  const gauge = (name: string, help: string, value: (d: DestinationView) => number) =>
    metrics.gauge(name, help, async () => (await rows()).map((d) => [{ destination: d.name, provider: d.provider ?? "" }, value(d)]));
  gauge("postern_destination_waiting", "recipients queued or deferred for the destination", (d) => d.waiting);
  gauge("postern_destination_in_flight", "attempts to the destination under way", (d) => d.in_flight);
  gauge("postern_destination_concurrency", "attempts the destination allows at once now (0 suspended, 1 throttled)", (d) => d.concurrency);
  gauge("postern_destination_max_concurrency", "the destination's connections limit", (d) => d.max_concurrency);
  gauge("postern_destination_suspended_until_seconds", "end of the destination's suspension (unix seconds; 0: not suspended)",
    (d) => (d.suspended_until ? Math.floor(Date.parse(d.suspended_until) / 1000) : 0));
}

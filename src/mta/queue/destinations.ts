// The scheduler's destinations: which destination each key (recipient domain) belongs to (its MX
// looked up once, then every HOP_REFRESH_MS in the background), and per destination the attempts
// in flight and the controller's state. The scheduler asks how many more it may start; outcomes
// come back through `finish`. One snapshot of it feeds `queue destinations`, /metrics and the console.
import type { DestinationSnapshot, TlsPolicyName } from "../../core/destination-store.ts";
import { destinationOf, type Destination } from "../shaping/destination.ts";
import { allowed, initialState, nextOpening, spend, step, tokensNow, type ControllerState } from "../shaping/controller.ts";
import { feedbackOf, type AttemptFacts } from "../shaping/feedback.ts";
import type { Shaping } from "../shaping/rules.ts";

const HOP_REFRESH_MS = 300_000;
const MAX_KEYS = 100_000;

export interface DestinationTableDeps {
  shaping: Shaping;
  routes: Readonly<Record<string, string>>;
  /** The MX host names of a domain ([] when it has none or the look-up failed). */
  mxHostsOf: (domain: string) => Promise<string[]>;
  now: () => number;
  /** A key's destination became known: worth a claim now. */
  onResolved: () => void;
  /** The TLS policy last in force per MX host of a key (attempt.ts), for the snapshot. */
  tlsPoliciesOf?: (key: string) => Record<string, TlsPolicyName>;
}

interface DestState {
  dest: Destination; ctl: ControllerState; keys: Set<string>;
  /** Recipients claimed for it and not yet given back (waiting in its lane or being attempted). */
  inFlight: number;
  /** Attempts under way (lanes.ts), and what the other nodes last published as theirs. */
  running: number; othersInFlight: number;
}

export function createDestinationTable(deps: DestinationTableDeps) {
  const { shaping } = deps;
  const byKey = new Map<string, { name: string; at: number }>();
  const resolving = new Set<string>();
  const dests = new Map<string, DestState>();

  const stateFor = (dest: Destination): DestState => {
    let s = dests.get(dest.name);
    if (!s) dests.set(dest.name, (s = { dest, ctl: initialState(dest.limits, deps.now()), inFlight: 0, keys: new Set(), running: 0, othersInFlight: 0 }));
    return s;
  };
  const place = (key: string, dest: Destination) => {
    const old = byKey.get(key);
    if (old && old.name !== dest.name) dests.get(old.name)?.keys.delete(key);
    if (!old && byKey.size >= MAX_KEYS) { const first = byKey.keys().next().value!; dests.get(byKey.get(first)!.name)?.keys.delete(first); byKey.delete(first); }
    byKey.set(key, { name: dest.name, at: deps.now() });
    stateFor(dest).keys.add(key);
  };
  /** Known without DNS: a provider by the recipient domain, or a static route. */
  const withoutDns = (key: string): Destination | null => {
    const d = destinationOf(key, [], deps.routes, shaping.providers, shaping.defaults);
    return d.provider || d.name !== key.toLowerCase() ? d : null;
  };
  const resolve = (key: string) => {
    if (resolving.has(key)) return;
    resolving.add(key);
    void deps.mxHostsOf(key).catch(() => [] as string[]).then((mx) => {
      resolving.delete(key);
      place(key, destinationOf(key, mx, deps.routes, shaping.providers, shaping.defaults));
      deps.onResolved();
    });
  };

  const allowedNow = (s: DestState) => Math.max(0, Math.min(allowed(s.ctl, s.dest.limits, deps.now()), s.dest.limits.connections - s.othersInFlight));

  return {
    /** The destination of `key`, or null while its MX look-up runs (a claim passes it over meanwhile). */
    of(key: string): DestState | null {
      const hit = byKey.get(key);
      if (hit) {
        if (deps.now() - hit.at > HOP_REFRESH_MS && !withoutDns(key)) resolve(key);
        return dests.get(hit.name)!;
      }
      const quick = withoutDns(key);
      if (quick) { place(key, quick); return dests.get(quick.name)!; }
      resolve(key);
      return null;
    },
    /**
     * Attempts `s` may have under way now: its concurrency (0 suspended, 1 throttled), within
     * `connections` less what the other nodes last published as under way.
     */
    allowedNow,
    /** How many more recipients to claim for `s`: up to twice what it may run (a worker finds the next at once), within its rate. */
    room(s: DestState): number {
      const now = deps.now();
      return Math.max(0, Math.min(2 * allowedNow(s) - s.inFlight, Math.floor(tokensNow(s.ctl, s.dest.limits.rate, now))));
    },
    /** What the other nodes serving these zones have in flight per destination (their last published state). */
    setOthers(inFlight: Map<string, number>) {
      for (const [name, s] of dests) s.othersInFlight = inFlight.get(name) ?? 0;
    },
    start(s: DestState, n: number) {
      s.inFlight += n;
      s.ctl = spend(s.ctl, s.dest.limits.rate, n, deps.now());
    },
    /** One attempt of `s` ended: `facts` is its outcome (null: it was not attempted). */
    finish(s: DestState, facts: AttemptFacts | null) {
      s.inFlight = Math.max(0, s.inFlight - 1);
      if (!facts) return;
      const fb = feedbackOf(facts, s.dest.provider, shaping.automation, deps.now());
      if (fb) s.ctl = step(s.ctl, s.dest.limits, fb, deps.now());
    },
    /** The earliest time a destination without room now may start again (suspension or rate), or null. */
    nextOpening(): number | null {
      let next: number | null = null;
      for (const s of dests.values()) {
        const t = nextOpening(s.ctl, s.dest.limits.rate, deps.now());
        if (t !== null && (next === null || t < next)) next = t;
      }
      return next;
    },
    snapshot(): DestinationSnapshot[] {
      const now = deps.now();
      return [...dests.values()].filter((s) => s.keys.size > 0 || s.inFlight > 0).map((s) => ({
        name: s.dest.name, provider: s.dest.provider, keys: [...s.keys].slice(0, 1000), inFlight: s.running,
        concurrency: allowed(s.ctl, s.dest.limits, now), maxConcurrency: s.dest.limits.connections,
        suspendedUntil: s.ctl.suspendedUntil !== null && s.ctl.suspendedUntil > now ? s.ctl.suspendedUntil : null,
        throttledUntil: s.ctl.throttledUntil !== null && s.ctl.throttledUntil > now ? s.ctl.throttledUntil : null,
        lastThrottle: s.ctl.lastThrottle, lastThrottleAt: s.ctl.lastThrottleAt,
        tlsPolicies: Object.assign({}, ...[...s.keys].slice(0, 100).map((k) => deps.tlsPoliciesOf?.(k) ?? {})) as Record<string, TlsPolicyName>,
      }));
    },
  };
}

export type DestinationTable = ReturnType<typeof createDestinationTable>;
export type DestinationState = DestState;

// The concurrency of one destination as a state machine, (state, outcome, now) → state, after
// Postfix's qmgr_queue.c: the window starts at initial_connections, grows by one per delivery that
// got an answer, and shrinks by one per connection failure, 421 or throttle reply. Postfix then
// holds it where it failed; here the failing window is the ceiling for CEILING_HOLD_MS, after
// which the window may probe one higher again. Automation suspends (no attempt) or throttles (one
// connection) a destination until a time. Pure: the scheduler keeps one state per destination.
import type { Rate, ShapingLimits } from "./rules.ts";

/** How long a window that failed stays the ceiling before it may grow past it again. */
export const CEILING_HOLD_MS = 60_000;

export interface ControllerState {
  concurrency: number;
  /** The most the window may grow to until `ceilingUntil` (after a failure); null: `connections`. */
  ceiling: number | null;
  ceilingUntil: number;
  suspendedUntil: number | null;
  throttledUntil: number | null;
  lastThrottle: string | null;
  lastThrottleAt: number | null;
  /** Rate tokens left and when they were counted (a token bucket of `rate.count` per `rate.perMs`). */
  tokens: number;
  tokensAt: number;
}

export type ControllerOutcome =
  /** The receiver answered (delivered, or refused one recipient): the connection works. */
  | { kind: "answered" }
  /** A connection failed, or a 421 / "too many connections" / rate reply came back. */
  | { kind: "pushback"; reply: string }
  | { kind: "suspend"; reply: string; untilMs: number }
  | { kind: "throttle"; reply: string; untilMs: number };

export function initialState(limits: ShapingLimits, now: number): ControllerState {
  return { concurrency: Math.max(1, Math.min(limits.initialConnections, limits.connections)), ceiling: null, ceilingUntil: 0,
    suspendedUntil: null, throttledUntil: null, lastThrottle: null, lastThrottleAt: null,
    tokens: limits.rate?.count ?? 0, tokensAt: now };
}

const lower = (s: ControllerState, now: number): ControllerState => {
  const concurrency = Math.max(1, s.concurrency - 1);
  return { ...s, concurrency, ceiling: concurrency, ceilingUntil: now + CEILING_HOLD_MS };
};

export function step(s: ControllerState, limits: ShapingLimits, outcome: ControllerOutcome, now: number): ControllerState {
  switch (outcome.kind) {
    case "answered": {
      const cap = s.ceiling !== null && now < s.ceilingUntil ? Math.min(s.ceiling, limits.connections) : limits.connections;
      const ceiling = now < s.ceilingUntil ? s.ceiling : null;
      return { ...s, ceiling, concurrency: Math.min(cap, s.concurrency < cap ? s.concurrency + 1 : s.concurrency) };
    }
    case "pushback": return { ...lower(s, now), lastThrottle: outcome.reply, lastThrottleAt: now };
    case "suspend":
      return { ...lower(s, now), suspendedUntil: Math.max(s.suspendedUntil ?? 0, outcome.untilMs), lastThrottle: outcome.reply, lastThrottleAt: now };
    case "throttle":
      return { ...lower(s, now), throttledUntil: Math.max(s.throttledUntil ?? 0, outcome.untilMs), lastThrottle: outcome.reply, lastThrottleAt: now };
  }
}

/** Attempts the destination may have in flight now: 0 while suspended, 1 while throttled. */
export function allowed(s: ControllerState, limits: ShapingLimits, now: number): number {
  if (s.suspendedUntil !== null && now < s.suspendedUntil) return 0;
  if (s.throttledUntil !== null && now < s.throttledUntil) return 1;
  return Math.min(s.concurrency, limits.connections);
}

/** Tokens available now under `rate` (Infinity without one). */
export function tokensNow(s: ControllerState, rate: Rate | null, now: number): number {
  if (!rate) return Infinity;
  return Math.min(rate.count, s.tokens + ((now - s.tokensAt) * rate.count) / rate.perMs);
}

/** Spends `n` tokens (messages started now). */
export function spend(s: ControllerState, rate: Rate | null, n: number, now: number): ControllerState {
  if (!rate || n === 0) return s;
  return { ...s, tokens: tokensNow(s, rate, now) - n, tokensAt: now };
}

/** When a destination that may start nothing now may start again (null: it may now, or when a slot frees). */
export function nextOpening(s: ControllerState, rate: Rate | null, now: number): number | null {
  if (s.suspendedUntil !== null && now < s.suspendedUntil) return s.suspendedUntil;
  if (rate && tokensNow(s, rate, now) < 1) return now + Math.ceil(((1 - tokensNow(s, rate, now)) * rate.perMs) / rate.count);
  return null;
}

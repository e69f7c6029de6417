// Shaping as data: the limits of one destination, the built-in provider table and the built-in
// automation rules for the big receivers' throttle replies. Every number has its source in
// docs/shaping.md; `[mta.shaping]` in the config overrides them (src/config/shaping.ts).
import type { Rate } from "../../config/shaping.ts";

export type { Rate };

/** The limits of one destination. */
export interface ShapingLimits {
  /** Most connections open at once to the destination (the concurrency's ceiling). */
  connections: number;
  /** Where the concurrency starts. */
  initialConnections: number;
  messagesPerConnection: number;
  /** Most messages started per `rate.perMs` (null: no limit). */
  rate: Rate | null;
}


/** A provider: a name, the suffixes that match its recipient domains or MX host names, its limits. */
export interface ProviderRule { name: string; match: string[]; limits: ShapingLimits }

export type AutomationAction = "suspend" | "throttle";
/** On a reply matching `match` from a destination of `provider` ("*": any), `action` for `durationMs`. */
export interface AutomationRule { provider: string; match: RegExp; action: AutomationAction; durationMs: number; builtIn: boolean }

export interface Shaping { defaults: ShapingLimits; providers: ProviderRule[]; automation: AutomationRule[] }

/** Postfix's defaults (initial_destination_concurrency 5, default_destination_concurrency_limit 20). */
export const DEFAULT_LIMITS: ShapingLimits = { connections: 20, initialConnections: 5, messagesPerConnection: 100, rate: null };

const provider = (name: string, match: string[], limits: Partial<ShapingLimits>): ProviderRule =>
  ({ name, match, limits: { ...DEFAULT_LIMITS, ...limits } });

/** Built-in providers (docs/shaping.md gives the source of each number). */
export const BUILT_IN_PROVIDERS: ProviderRule[] = [
  provider("gmail", ["gmail.com", "googlemail.com", "google.com"], { connections: 20, messagesPerConnection: 50 }),
  provider("outlook", ["outlook.com", "hotmail.com", "live.com", "msn.com"], { connections: 20, messagesPerConnection: 50 }),
  provider("yahoo", ["yahoo.com", "ymail.com", "rocketmail.com", "aol.com", "yahoodns.net"], { connections: 20, messagesPerConnection: 20 }),
  provider("icloud", ["icloud.com", "me.com", "mac.com"], { connections: 10, initialConnections: 5, messagesPerConnection: 5 }),
  provider("apple", ["apple.com"], { connections: 10, initialConnections: 5, messagesPerConnection: 5 }),
];

const HOUR = 3_600_000;
const rule = (provider: string, match: RegExp, action: AutomationAction, durationMs: number): AutomationRule =>
  ({ provider, match, action, durationMs, builtIn: true });

/** Built-in automation (docs/shaping.md quotes each receiver's published text). */
export const BUILT_IN_AUTOMATION: AutomationRule[] = [
  // Yahoo: "421 4.7.0 [TSS04] Messages from x.x.x.x temporarily deferred due to unexpected volume or user complaints".
  rule("yahoo", /\[(TSS04|IPTS04)\]/, "suspend", 2 * HOUR),
  rule("yahoo", /\[(TSS05|IPTS05)\]/, "suspend", 4 * HOUR),
  rule("yahoo", /\[TS0[23]\]/, "throttle", HOUR / 2),
  // Microsoft: "451 4.7.500 Server busy. Please try again later from [x.x.x.x]", "4.7.650 ... rate limited due to IP reputation".
  rule("outlook", /Server busy\. Please try again later|4\.7\.650|temporarily rate limited/i, "throttle", HOUR + HOUR / 2),
  // Exchange: "421 4.3.2 The maximum number of concurrent server connections has exceeded a limit".
  rule("outlook", /too many connections|maximum number of concurrent (server )?connections/i, "throttle", HOUR / 4),
  // Gmail: "421 4.7.28 ... unusual rate of unsolicited mail", "421 4.7.0 ... Our system has detected an unusual rate".
  rule("gmail", /4\.7\.28|unusual rate/i, "throttle", HOUR / 2),
  // Any receiver: the wording of the default automation of KumoMTA's shaping.toml.
  rule("*", /Messages from \d+\.\d+\.\d+\.\d+ temporarily deferred|has been temporarily rate limited due to IP reputation/i, "throttle", HOUR + HOUR / 2),
];

/** The rule that applies to `reply` from a destination of `provider`: configured rules before built-in ones. */
export function automationFor(rules: AutomationRule[], provider: string | null, reply: string): AutomationRule | null {
  const applies = (r: AutomationRule) => (r.provider === "*" || r.provider === provider) && r.match.test(reply);
  return rules.find((r) => !r.builtIn && applies(r)) ?? rules.find((r) => r.builtIn && applies(r)) ?? null;
}

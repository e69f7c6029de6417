// Public surface of bot detection: the pure classifier, its compiled context, and the two small
// in-memory helpers (honeypot memory, interaction tracker) that produce its stateful signals in the
// offline replay (test/fixtures/bots, bench/bot-eval.ts). A running server keeps those signals in
// the zone's store instead, shared by the zone's nodes (shared-memory.ts, the same windows).

export { classifyInteraction } from "./classifier.ts";
export {
  createClassifierContext,
  parseRangeList,
  DEFAULT_THRESHOLDS,
  type ClassifierContext,
  type ClassifierOptions,
} from "./context.ts";
export { createIpRangeMatcher, parseCidr, parseIp, type IpRangeMatcher } from "./cidr.ts";
export { createHoneypotMemory, HONEYPOT_TTL_MS, type HoneypotMemory } from "./honeypot.ts";
export { createInteractionTracker, widestPattern, HONEYPOT_LINK_ID, type InteractionTracker } from "./pattern.ts";
export { createSpreadTracker, SPREAD_WINDOW_MS, OPENED_TTL_MS, type SpreadTracker } from "./spread.ts";
export type {
  BotVerdict,
  SpreadPattern,
  ClassifierThresholds,
  InteractionAction,
  InteractionPattern,
  InteractionSignals,
  Verdict,
} from "./types.ts";

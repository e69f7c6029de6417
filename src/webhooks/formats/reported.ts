// postern's own failure reasons (core: "suppressed", "cancelled", test mode) as its surfaces have
// always reported them, in Mailgun's convention, which the native API and the console document as
// their own: code 605 for a recipient dropped without an attempt, 650 for a test-mode delivery,
// Mailgun's words and suppress-* reasons for an address on a list. SendGrid and SparkPost show the
// same code and words in their reason fields.
import type { MessageEvent, SuppressingList } from "../../core/model.ts";
import { isDrop } from "../../core/model.ts";

export const DROP_CODE = 605;
export const TEST_MODE_CODE = 650;

const SUPPRESSED_TEXT: Record<SuppressingList, string> = {
  bounces: "Not delivering to previously bounced address",
  unsubscribes: "Not delivering to previously unsubscribed address",
  complaints: "Not delivering to previously complained address",
};
const SUPPRESSED_REASON: Record<SuppressingList, string> = { bounces: "suppress-bounce", unsubscribes: "suppress-unsubscribe", complaints: "suppress-complaint" };

/** The event's reply code: the receiver's, or 605 / 650 for postern's own decisions. */
export function reportedCode(e: MessageEvent): number | undefined {
  if (isDrop(e)) return DROP_CODE;
  if (e.testMode) return TEST_MODE_CODE;
  return e.code;
}

/** The event's text: the receiver's, or Mailgun's words for a suppressed recipient. */
export function reportedDescription(e: MessageEvent): string | undefined {
  if (e.type === "failed" && e.reason === "suppressed") return SUPPRESSED_TEXT[e.suppressedBy ?? "bounces"] ?? "Not delivering to a suppressed address";
  return e.description;
}

/** Mailgun's `reason` of a failure postern decided (suppress-*, cancelled, old); undefined for a receiver's. */
export function reportedReason(e: MessageEvent): string | undefined {
  if (e.reason === "suppressed") return SUPPRESSED_REASON[e.suppressedBy ?? "bounces"] ?? "suppress-bounce";
  return e.reason;
}

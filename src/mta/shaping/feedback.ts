// What one attempt's outcome tells the destination's controller: the receiver answered, pushed
// back (a connection that failed, a 421, a reply about too many connections or a rate), or said
// something an automation rule acts on. Pure.
import type { ControllerOutcome } from "./controller.ts";
import { automationFor, type AutomationRule } from "./rules.ts";

export interface AttemptFacts { kind: "delivered" | "deferred" | "failed"; code?: number; enhancedCode?: string; message: string }

/** RFC 3463 §3.5 network and routing: no answer from host (4.4.1), bad connection (4.4.2). */
const CONNECTION_FAILURE = /^4\.4\.[12]$/;
/** Words receivers use when a sender opens too many connections or sends too fast. */
const PUSHBACK_TEXT = /too many (connections|concurrent)|connection (rate|limit)|rate.?limit|throttl|unusual rate|too fast|too much mail/i;

/** The controller's input for one attempt, or null when nothing reached the receiver (a hold, a local check). */
export function feedbackOf(facts: AttemptFacts, provider: string | null, rules: AutomationRule[], now: number): ControllerOutcome | null {
  const reply = facts.message;
  const answered = facts.code !== undefined || /^\d{3}[\s-]/.test(reply);
  const temporary = facts.kind === "deferred";
  if (answered || temporary) {
    const rule = automationFor(rules, provider, reply);
    if (rule) return { kind: rule.action, reply, untilMs: now + rule.durationMs };
  }
  // A greeting refused ("Invalid greeting. response=421 …") reaches here without a reply code.
  if (!answered) return temporary && (CONNECTION_FAILURE.test(facts.enhancedCode ?? "") || /\b421\b/.test(reply) || PUSHBACK_TEXT.test(reply)) ? { kind: "pushback", reply } : null;
  const code = facts.code ?? Number(reply.slice(0, 3));
  if (code === 421 || (code >= 400 && code < 500 && PUSHBACK_TEXT.test(reply))) return { kind: "pushback", reply };
  return { kind: "answered" };
}

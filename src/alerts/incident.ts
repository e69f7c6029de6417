// An alert's life as one pure function, (incident, observation, now) → incident: it fires once
// per (rule, subject), reminds every 24 hours while still over, and resolves after an hour back
// under its threshold (a dip shorter than that keeps it open and sends nothing). An event that
// states its own end (a delisting, a check back to ok) resolves at once: `resolveAfterMs: 0`.
import type { AlertIncident, AlertState } from "../core/alerts-port.ts";

export const REMIND_AFTER_MS = 24 * 3_600_000;
export const RESOLVE_AFTER_MS = 3_600_000;

export interface Observation { firing: boolean; value: number; threshold: number; resolveAfterMs?: number }

/** The incident after the observation (null: none yet) and the notification it calls for. */
export interface Step { incident: AlertIncident | null; notify: AlertState | null }

export const isOpen = (i: AlertIncident | null): i is AlertIncident => i !== null && i.state !== "resolved";

export function step(current: AlertIncident | null, key: { ruleId: string; subject: string }, obs: Observation, now: number,
  newId: () => string): Step {
  if (!isOpen(current)) {
    if (!obs.firing) return { incident: current, notify: null };
    return { notify: "firing", incident: { id: newId(), ruleId: key.ruleId, subject: key.subject, state: "firing", value: obs.value,
      threshold: obs.threshold, firedAt: now, notifiedAt: now, clearSince: null, resolvedAt: null, updatedAt: now } };
  }
  const next = { ...current, value: obs.value, threshold: obs.threshold, updatedAt: now };
  if (obs.firing) {
    next.clearSince = null;
    if (now - current.notifiedAt < REMIND_AFTER_MS) return { incident: next, notify: null };
    return { incident: { ...next, state: "reminder", notifiedAt: now }, notify: "reminder" };
  }
  const since = current.clearSince ?? now;
  if (now - since < (obs.resolveAfterMs ?? RESOLVE_AFTER_MS)) return { incident: { ...next, clearSince: since }, notify: null };
  return { incident: { ...next, clearSince: since, state: "resolved", resolvedAt: now }, notify: "resolved" };
}

// The doctor's change feed as alert observations, so app.ts wires it in one line:
// `doctor.onChange((c) => { const o = observationOfChange(c); if (o) void alerts.observe(o); })`.
// A check turning `error` fires the `check` rule (subject `<check id>:<subject>`, or the id for a
// machine-wide check) and leaving `error` clears it; a blocklist entry turning `listed` fires the
// `blocklist` rule for the address or domain and `clear` (no zone still listing it) clears it at once. An `unknown` answer (a refused
// resolver, a timeout) says nothing either way and is no observation.
import type { AlertObservation } from "./service.ts";

/** One change of the doctor's feed (a check's severity or a blocklist entry's state, from → to). */
export interface DoctorChange {
  kind: "check" | "blocklist"; id: string; subject: string; from: string; to: string; at: number | string;
  /** A blocklist change: the zones still listing the subject after the run. */
  listedIn?: string[];
}

export function observationOfChange(c: DoctorChange): AlertObservation | null {
  if (c.to === "unknown") return null;
  const at = typeof c.at === "number" ? c.at : Date.parse(c.at);
  const when = Number.isFinite(at) ? { at } : {};
  // The blocklist check's severity follows its listings, which the `blocklist` rule already
  // alerts on: one listing, one alert.
  if (c.kind === "check" && c.id === "blocklist") return null;
  if (c.kind === "check") {
    const subject = c.subject && c.subject !== c.id ? `${c.id}:${c.subject}` : c.id;
    return { rule: "check", subject, firing: c.to === "error", ...when };
  }
  // One alert per address or domain: delisted by one zone while another still lists it stays firing.
  return { rule: "blocklist", subject: c.subject, firing: c.to === "listed" || (c.listedIn?.length ?? 0) > 0, ...when };
}

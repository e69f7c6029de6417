// Tracking hosts on the domains table (core/tracking-host-port.ts), and their part of a domain row.
import type { Database } from "bun:sqlite";
import type { DomainTracking } from "../../core/model.ts";
import type { TrackingHostStore } from "../../core/tracking-host-port.ts";

type Row = Record<string, unknown>;

/** The tracking part of a domains row (both engines). */
export const toTracking = (r: Row): DomainTracking => ({
  host: (r.tracking_host as string | undefined) ?? "", state: ((r.tracking_state as string | undefined) ?? "pending") as DomainTracking["state"],
  note: (r.tracking_note as string | undefined) ?? "", changedAt: Number(r.tracking_changed_at ?? 0),
});

export function createTrackingHostStore(db: Database): TrackingHostStore {
  return {
    async setTrackingHost(name, host, now) {
      return db.query(`UPDATE domains SET tracking_host = ?, tracking_state = 'pending', tracking_note = '', tracking_changed_at = ?, updated_at = ?
        WHERE name = ?`).run(host, now, now, name.toLowerCase()).changes > 0;
    },
    async recordTrackingState(name, state, note, now) {
      return db.query("UPDATE domains SET tracking_state = ?, tracking_note = ?, tracking_changed_at = ? WHERE name = ?")
        .run(state, note, now, name.toLowerCase()).changes > 0;
    },
  };
}

// Tracking hosts on the control schema's domains table (core/tracking-host-port.ts).
import type { TrackingHostStore } from "../../core/tracking-host-port.ts";
import { exec, type Sql } from "./db.ts";

export function createTrackingHostStore(sql: Sql): TrackingHostStore {
  return {
    async setTrackingHost(name, host, now) {
      return (await exec(sql, `UPDATE domains SET tracking_host = $1, tracking_state = 'pending', tracking_note = '', tracking_changed_at = $2,
        updated_at = $2 WHERE name = $3`, [host, now, name.toLowerCase()])) > 0;
    },
    async recordTrackingState(name, state, note, now) {
      return (await exec(sql, "UPDATE domains SET tracking_state = $1, tracking_note = $2, tracking_changed_at = $3 WHERE name = $4",
        [state, note, now, name.toLowerCase()])) > 0;
    },
  };
}

// The control schema: the blocklist watch's history, one row per (subject, zone), shared by nodes.
import type { BlocklistStore } from "../../core/blocklist-port.ts";
import { toBlocklistEntry } from "../sqlite/blocklists.ts";
import { exec, rows, type Sql } from "./db.ts";

export function createBlocklistHistory(sql: Sql): BlocklistStore {
  return {
    async listBlocklistEntries() {
      return (await rows(sql, "SELECT * FROM blocklist_entries ORDER BY subject, zone")).map(toBlocklistEntry);
    },
    async saveBlocklistEntries(entries) {
      await sql.begin(async (tx) => {
        for (const e of entries) {
          await exec(tx as unknown as Sql, `INSERT INTO blocklist_entries (subject, zone, kind, state, answer, cause, first_seen, last_seen, last_known)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (subject, zone) DO UPDATE SET kind = $3, state = $4, answer = $5, cause = $6,
            first_seen = $7, last_seen = $8, last_known = $9`, [e.subject, e.zone, e.kind, e.state, e.answer, e.cause, e.firstSeen, e.lastSeen, e.lastKnown]);
        }
      });
    },
  };
}

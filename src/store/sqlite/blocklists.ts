// control.sqlite: the blocklist watch's history, one row per (subject, zone).
import type { Database } from "bun:sqlite";
import type { BlocklistEntry, BlocklistStore } from "../../core/blocklist-port.ts";

type Row = Record<string, unknown>;

export const toBlocklistEntry = (r: Row): BlocklistEntry => ({
  subject: r.subject as string, kind: r.kind as BlocklistEntry["kind"], zone: r.zone as string, state: r.state as BlocklistEntry["state"],
  answer: r.answer as string, cause: r.cause as string, firstSeen: Number(r.first_seen), lastSeen: Number(r.last_seen),
  lastKnown: r.last_known as BlocklistEntry["lastKnown"],
});

export function createBlocklistHistory(db: Database): BlocklistStore {
  const all = db.query("SELECT * FROM blocklist_entries ORDER BY subject, zone");
  const put = db.query(`INSERT INTO blocklist_entries (subject, zone, kind, state, answer, cause, first_seen, last_seen, last_known)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) ON CONFLICT (subject, zone) DO UPDATE SET kind = ?3, state = ?4, answer = ?5, cause = ?6,
    first_seen = ?7, last_seen = ?8, last_known = ?9`);
  const save = db.transaction((entries: readonly BlocklistEntry[]) => {
    for (const e of entries) put.run(e.subject, e.zone, e.kind, e.state, e.answer, e.cause, e.firstSeen, e.lastSeen, e.lastKnown);
  });
  return {
    async listBlocklistEntries() { return (all.all() as Row[]).map(toBlocklistEntry); },
    async saveBlocklistEntries(entries) { save(entries); },
  };
}

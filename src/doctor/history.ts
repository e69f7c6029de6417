// first_seen/last_seen of the blocklist watch, and the changes a run makes: a pure merge of what
// was kept with what this run observed. Listing events compare known states only (listed, clear):
// a zone that cannot be asked for a while neither delists nor relists anything.
import type { BlocklistEntry } from "../core/blocklist-port.ts";
import type { BlocklistAnswer } from "./types.ts";

export interface BlocklistChange {
  kind: "blocklist";
  id: "blocklist";
  subject: string;
  /** The last known state before ("unknown" when none was known yet: a first listing). */
  from: "listed" | "clear" | "unknown";
  to: "listed" | "clear";
  at: number;
  zone: string;
  entryKind: "ip" | "domain";
  answer: string;
  /** The sending domain a listed host name belongs to; null for an address. */
  domain: string | null;
  /** Every zone the subject is known listed in after this run: a delisting from one list while
   *  another still lists it leaves this non-empty (an alert should stay open). */
  listedIn: string[];
}

export function mergeBlocklist(kept: readonly BlocklistEntry[], observed: readonly (BlocklistAnswer & { domain?: string | null })[], now: number) {
  const byKey = new Map(kept.map((e) => [`${e.subject}\n${e.zone}`, e]));
  const entries: BlocklistEntry[] = [];
  const changes: BlocklistChange[] = [];
  for (const o of observed) {
    const prev = byKey.get(`${o.subject}\n${o.zone}`);
    const same = prev?.state === o.state;
    const known = o.state === "unknown" ? prev?.lastKnown ?? "" : o.state;
    entries.push({ subject: o.subject, kind: o.kind, zone: o.zone, state: o.state, answer: o.answer, cause: o.cause,
      firstSeen: same ? prev!.firstSeen : now, lastSeen: now, lastKnown: known });
    const from = prev?.lastKnown || "unknown";
    // A first observation that is clear is no change; a first listing is.
    if (o.state !== "unknown" && o.state !== from && (o.state === "listed" || from === "listed")) {
      changes.push({ kind: "blocklist", id: "blocklist", subject: o.subject, from, to: o.state, at: now, zone: o.zone, entryKind: o.kind,
        answer: o.answer, domain: o.domain ?? null, listedIn: [] });
    }
  }
  // Known listings after the run: this run's entries over the kept ones (an unknown keeps its last known state).
  const after = new Map(kept.map((e) => [`${e.subject}\n${e.zone}`, e]));
  for (const e of entries) after.set(`${e.subject}\n${e.zone}`, e);
  for (const c of changes) c.listedIn = [...after.values()].filter((e) => e.subject === c.subject && e.lastKnown === "listed").map((e) => e.zone).sort();
  return { entries, changes };
}

// The part of the storage port retention uses (src/ops/retention.ts); ZoneStore includes it.
import type { StatFold, StatRollup } from "./stats/rollup-model.ts";

/** Which rolled-up rows a stats read wants: the rows of every event (no tags), of these tags, or of every tag ("*"). */
export interface StatRollupQuery { domain?: string; begin: number; end: number; tags?: string[] | "*" }

/**
 * Retention (src/ops/retention.ts): each call deletes one bounded batch in one short transaction.
 * Deleted events are first added to hourly counts that countEvents keeps reading, and to the stat
 * rollups `fold` makes of them (core/stats/rollup.ts), which the vendor stats read (statRollups):
 * stats outlive the events behind them. Ids are time-ordered (core/ids.ts), so `before` bounds an
 * index range.
 */
export interface RetentionStore {
  /** Deletes at most `limit` events older than `before` (ms); returns how many went. */
  sweepEvents(before: number, limit: number, fold: StatFold): Promise<number>;
  /**
   * Looks at most `limit` messages after `after` (a message id; "" from the start) created before
   * `before`, and deletes those whose every recipient reached its final outcome before `before`,
   * with their recipients, events and (when no message of the send is left) attachments. `next`:
   * the last message looked at, or null when the scan reached the end (start again from "").
   */
  sweepMessages(before: number, limit: number, after: string, fold: StatFold): Promise<{ deleted: number; next: string | null }>;
  /** Deletes at most `limit` finished webhook posts (not pending) made before `before`; returns how many went. */
  sweepOutbox(before: number, limit: number): Promise<number>;
  /** The stat rollups of hours that overlap [begin, end] (bucket > begin - 1 h and bucket <= end). */
  statRollups(q: StatRollupQuery): Promise<StatRollup[]>;
}

// The nouns of the stats' rollups (rollup.ts), apart from its rules so the storage port can name
// them without importing the rules.
import type { MessageEvent } from "../model.ts";
import type { MessageExtra } from "../records.ts";

/** One rolled-up count: `n` events of key `stat`, `bytes` the size of the messages they delivered. */
export interface StatRollup {
  domain: string;
  /** The hour (UTC ms at its start). */
  bucket: number;
  /** '' for the row that counts every event; a tag for the rows that count that tag's (other dimensions '' there). */
  tag: string;
  rcptDomain: string;
  campaign: string;
  template: string;
  ipPool: string;
  stat: string;
  n: number;
  bytes: number;
}

/** An event about to be deleted, with what its message tells the stats (null when the message is gone). */
export interface FoldInput { event: MessageEvent; message: { size: number; extra?: MessageExtra } | null }

/** What an engine calls inside the delete's transaction: the rollups the deleted events add up to. */
export type StatFold = (rows: FoldInput[]) => StatRollup[];

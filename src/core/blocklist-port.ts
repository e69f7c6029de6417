// The storage port of the blocklist watch's history (part of ControlStore, in its own file to keep
// store-port.ts short): one row per (subject, zone), the state last observed and since when.

export interface BlocklistEntry {
  /** An egress address or a host name. */
  subject: string;
  kind: "ip" | "domain";
  /** The zone as configured (not the DQS name asked). */
  zone: string;
  state: "listed" | "clear" | "unknown";
  answer: string;
  cause: string;
  /** When the current state was first and last observed (ms). */
  firstSeen: number;
  lastSeen: number;
  /** The last state that was not unknown ("" before any): listing events compare against it, so a
   *  lookup that fails for a while neither delists nor relists. */
  lastKnown: "listed" | "clear" | "";
}

export interface BlocklistStore {
  /** Every entry kept, ordered by subject then zone. */
  listBlocklistEntries(): Promise<BlocklistEntry[]>;
  /** Inserts or replaces entries by (subject, zone). */
  saveBlocklistEntries(entries: readonly BlocklistEntry[]): Promise<void>;
}

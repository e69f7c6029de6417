// The storage port of alerts (part of ControlStore, in its own file to keep store-port.ts short):
// the configured rules and the incidents, shared by every node so that a restart (or another node)
// neither fires an alert again nor forgets one that is open. The rules' meaning is src/alerts/.

/** A rule configured through an API or the CLI (the built-in rules are code: src/alerts/rules.ts). */
export interface StoredAlertRule {
  /** Assigned by the engine: ascending integers, never reused. */
  id: number;
  /** What it watches: a metric (`hard_bounce_rate`, …) or an event rule (`blocklist`, `check`, …). */
  metric: string;
  /** Fires above it (rates as fractions; queue_age in seconds), or below it (certificate days). */
  threshold: number;
  /** Milliseconds of history a rate is computed over. */
  window: number;
  minVolume: number;
  /** Only this sending domain; null: every one. */
  domain: string | null;
  /** Who made it and what that surface keeps of its own shape (name, channels, muted, email_to, …). */
  source: string;
  extra: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
}

export type AlertState = "firing" | "reminder" | "resolved";

/** One alert: a (rule, subject) pair and where it stands. */
export interface AlertIncident {
  /** Stays the same from firing to resolved; a new firing after a resolution gets a new id. */
  id: string;
  /** A built-in rule's name or a configured rule's id (as text). */
  ruleId: string;
  subject: string;
  state: AlertState;
  value: number;
  threshold: number;
  /** When it fired, when it last notified (fired or reminded), when the value went back under (null: over now). */
  firedAt: number;
  notifiedAt: number;
  clearSince: number | null;
  resolvedAt: number | null;
  updatedAt: number;
}

export interface AlertStore {
  /** Stores a new rule; the engine assigns its id. */
  insertAlertRule(r: Omit<StoredAlertRule, "id">): Promise<StoredAlertRule>;
  /** Replaces a rule's fields (not its id nor createdAt); false when it does not exist. */
  updateAlertRule(r: StoredAlertRule): Promise<boolean>;
  /** Every configured rule, by id. */
  listAlertRules(): Promise<StoredAlertRule[]>;
  /** Deletes the rule and its incidents; false when it does not exist. */
  deleteAlertRule(id: number): Promise<boolean>;
  /**
   * Writes an incident over the one of the same (ruleId, subject) if that is still the one the
   * writer read (its `updatedAt`; null: none was stored). False when another writer (another node
   * of a shared database) came first: that writer notifies, so an alert fires once in a cluster.
   */
  putAlertIncident(i: AlertIncident, readUpdatedAt: number | null): Promise<boolean>;
  /** Incidents, newest first; `open`: only those not resolved. */
  listAlertIncidents(q: { open?: boolean }): Promise<AlertIncident[]>;
}

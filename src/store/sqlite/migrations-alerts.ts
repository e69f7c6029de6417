// Alerts (docs/alerts.md): configured rules and incidents, one row per (rule, subject).
export const ALERTS_CONTROL_MIGRATIONS: string[] = [
  `CREATE TABLE alert_rules (
     id INTEGER PRIMARY KEY AUTOINCREMENT, metric TEXT NOT NULL, threshold REAL NOT NULL, window_ms INTEGER NOT NULL,
     min_volume INTEGER NOT NULL, domain TEXT, source TEXT NOT NULL, extra TEXT NOT NULL DEFAULT '{}',
     created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
   CREATE TABLE alert_incidents (
     rule_id TEXT NOT NULL, subject TEXT NOT NULL, id TEXT NOT NULL, state TEXT NOT NULL, value REAL NOT NULL, threshold REAL NOT NULL,
     fired_at INTEGER NOT NULL, notified_at INTEGER NOT NULL, clear_since INTEGER, resolved_at INTEGER, updated_at INTEGER NOT NULL,
     PRIMARY KEY (rule_id, subject));`,
];

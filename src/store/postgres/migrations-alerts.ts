// Alerts (docs/alerts.md): configured rules and incidents, one row per (rule, subject).
export const ALERTS_CONTROL_MIGRATIONS: string[] = [
  `CREATE TABLE alert_rules (
     id BIGSERIAL PRIMARY KEY, metric TEXT NOT NULL, threshold DOUBLE PRECISION NOT NULL, window_ms BIGINT NOT NULL,
     min_volume BIGINT NOT NULL, domain TEXT, source TEXT NOT NULL, extra TEXT NOT NULL DEFAULT '{}',
     created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL);
   CREATE TABLE alert_incidents (
     rule_id TEXT NOT NULL, subject TEXT NOT NULL, id TEXT NOT NULL, state TEXT NOT NULL, value DOUBLE PRECISION NOT NULL,
     threshold DOUBLE PRECISION NOT NULL, fired_at BIGINT NOT NULL, notified_at BIGINT NOT NULL, clear_since BIGINT, resolved_at BIGINT,
     updated_at BIGINT NOT NULL, PRIMARY KEY (rule_id, subject));`,
];

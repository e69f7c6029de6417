// control.sqlite: configured alert rules and incidents (core/alerts-port.ts). The row mappers are
// shared with the PostgreSQL engine (its BIGINT columns arrive as text: every number goes through Number).
import type { Database } from "bun:sqlite";
import type { AlertIncident, AlertStore, StoredAlertRule } from "../../core/alerts-port.ts";
import { json } from "./db.ts";

type Row = Record<string, unknown>;
const num = (v: unknown) => Number(v);
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export const toAlertRule = (r: Row): StoredAlertRule => ({
  id: num(r.id), metric: r.metric as string, threshold: num(r.threshold), window: num(r.window_ms), minVolume: num(r.min_volume),
  domain: (r.domain as string | null) ?? null, source: r.source as string, extra: json(r.extra, {}), createdAt: num(r.created_at), updatedAt: num(r.updated_at),
});

export const toAlertIncident = (r: Row): AlertIncident => ({
  id: r.id as string, ruleId: r.rule_id as string, subject: r.subject as string, state: r.state as AlertIncident["state"], value: num(r.value),
  threshold: num(r.threshold), firedAt: num(r.fired_at), notifiedAt: num(r.notified_at), clearSince: numOrNull(r.clear_since),
  resolvedAt: numOrNull(r.resolved_at), updatedAt: num(r.updated_at),
});

/** The values of an incident row, in the column order of INCIDENT_COLUMNS. */
export const incidentValues = (i: AlertIncident) =>
  [i.ruleId, i.subject, i.id, i.state, i.value, i.threshold, i.firedAt, i.notifiedAt, i.clearSince, i.resolvedAt, i.updatedAt];
export const INCIDENT_COLUMNS = "rule_id, subject, id, state, value, threshold, fired_at, notified_at, clear_since, resolved_at, updated_at";
export const ruleValues = (r: Omit<StoredAlertRule, "id">) =>
  [r.metric, r.threshold, r.window, r.minVolume, r.domain, r.source, JSON.stringify(r.extra), r.createdAt, r.updatedAt];
export const RULE_COLUMNS = "metric, threshold, window_ms, min_volume, domain, source, extra, created_at, updated_at";

export function createAlertStore(db: Database): AlertStore {
  const marks = (n: number) => Array.from({ length: n }, (_, i) => `?${i + 1}`).join(", ");
  return {
    async insertAlertRule(r) {
      const row = db.query(`INSERT INTO alert_rules (${RULE_COLUMNS}) VALUES (${marks(9)}) RETURNING *`).get(...ruleValues(r) as never[]) as Row;
      return toAlertRule(row);
    },
    async updateAlertRule(r) {
      return db.query(`UPDATE alert_rules SET metric = ?1, threshold = ?2, window_ms = ?3, min_volume = ?4, domain = ?5, source = ?6, extra = ?7,
        updated_at = ?9 WHERE id = ?10`).run(...ruleValues(r) as never[], r.id).changes > 0;
    },
    async listAlertRules() {
      return (db.query("SELECT * FROM alert_rules ORDER BY id").all() as Row[]).map(toAlertRule);
    },
    async deleteAlertRule(id) {
      return db.transaction(() => {
        db.query("DELETE FROM alert_incidents WHERE rule_id = ?").run(String(id));
        return db.query("DELETE FROM alert_rules WHERE id = ?").run(id).changes > 0;
      })();
    },
    async putAlertIncident(i, readUpdatedAt) {
      const values = incidentValues(i) as never[];
      if (readUpdatedAt === null) return db.query(`INSERT INTO alert_incidents (${INCIDENT_COLUMNS}) VALUES (${marks(11)}) ON CONFLICT DO NOTHING`).run(...values).changes > 0;
      return db.query(`UPDATE alert_incidents SET id = ?3, state = ?4, value = ?5, threshold = ?6, fired_at = ?7, notified_at = ?8, clear_since = ?9,
        resolved_at = ?10, updated_at = ?11 WHERE rule_id = ?1 AND subject = ?2 AND updated_at = ?12`).run(...values, readUpdatedAt as never).changes > 0;
    },
    async listAlertIncidents(q) {
      const where = q.open ? "WHERE state <> 'resolved'" : "";
      return (db.query(`SELECT * FROM alert_incidents ${where} ORDER BY fired_at DESC, rule_id, subject`).all() as Row[]).map(toAlertIncident);
    },
  };
}

// The control schema: configured alert rules and incidents (core/alerts-port.ts), shared by every
// node, so one that restarts neither fires an open alert again nor forgets it.
import type { AlertStore } from "../../core/alerts-port.ts";
import { INCIDENT_COLUMNS, RULE_COLUMNS, incidentValues, ruleValues, toAlertIncident, toAlertRule } from "../sqlite/alerts.ts";
import { exec, one, rows, type Sql } from "./db.ts";

const marks = (n: number) => Array.from({ length: n }, (_, i) => `$${i + 1}`).join(", ");

export function createAlertStore(sql: Sql): AlertStore {
  return {
    async insertAlertRule(r) {
      return toAlertRule((await one(sql, `INSERT INTO alert_rules (${RULE_COLUMNS}) VALUES (${marks(9)}) RETURNING *`, ruleValues(r)))!);
    },
    async updateAlertRule(r) {
      return (await exec(sql, `UPDATE alert_rules SET metric = $1, threshold = $2, window_ms = $3, min_volume = $4, domain = $5, source = $6, extra = $7,
        updated_at = $8 WHERE id = $9`, [r.metric, r.threshold, r.window, r.minVolume, r.domain, r.source, JSON.stringify(r.extra), r.updatedAt, r.id])) > 0;
    },
    async listAlertRules() {
      return (await rows(sql, "SELECT * FROM alert_rules ORDER BY id")).map(toAlertRule);
    },
    async deleteAlertRule(id) {
      return sql.begin(async (tx) => {
        await exec(tx as unknown as Sql, "DELETE FROM alert_incidents WHERE rule_id = $1", [String(id)]);
        return (await exec(tx as unknown as Sql, "DELETE FROM alert_rules WHERE id = $1", [id])) > 0;
      });
    },
    async putAlertIncident(i, readUpdatedAt) {
      // One statement each: of two nodes writing the same step, the row's lock lets exactly one through.
      if (readUpdatedAt === null) {
        return (await exec(sql, `INSERT INTO alert_incidents (${INCIDENT_COLUMNS}) VALUES (${marks(11)}) ON CONFLICT DO NOTHING`, incidentValues(i))) > 0;
      }
      return (await exec(sql, `UPDATE alert_incidents SET id = $3, state = $4, value = $5, threshold = $6, fired_at = $7, notified_at = $8, clear_since = $9,
        resolved_at = $10, updated_at = $11 WHERE rule_id = $1 AND subject = $2 AND updated_at = $12`, [...incidentValues(i), readUpdatedAt])) > 0;
    },
    async listAlertIncidents(q) {
      const where = q.open ? "WHERE state <> 'resolved'" : "";
      return (await rows(sql, `SELECT * FROM alert_incidents ${where} ORDER BY fired_at DESC, rule_id, subject`)).map(toAlertIncident);
    },
  };
}

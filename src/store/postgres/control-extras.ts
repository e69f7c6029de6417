// The control schema's smaller tables: web console sessions and inbound routing rules.
import type { InboundRuleStore } from "../../core/inbound/model.ts";
import type { ControlStore } from "../../core/store-port.ts";
import { toRule } from "../sqlite/inbound-rules.ts";
import { exec, one, rows, type Sql } from "./db.ts";

type Extras = InboundRuleStore & Pick<ControlStore, "insertSession" | "getSession" | "deleteSessions">;

export function createControlExtras(sql: Sql): Extras {
  return {
    async insertSession(s) {
      await exec(sql, "INSERT INTO console_sessions (token_hash, key_id, user_id, csrf, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)",
        [s.tokenHash, s.keyId, s.userId ?? null, s.csrf, s.createdAt, s.expiresAt]);
    },
    async getSession(tokenHash) {
      const r = await one(sql, "SELECT * FROM console_sessions WHERE token_hash = $1", [tokenHash]);
      return r ? { tokenHash, keyId: (r.key_id as string | null) ?? null, userId: (r.user_id as string | null) ?? null, csrf: r.csrf as string, createdAt: r.created_at as number, expiresAt: r.expires_at as number,
        ...(r.tenant !== null && r.tenant !== undefined ? { tenant: Number(r.tenant) } : {}) } : null;
    },
    async deleteSessions(q) {
      if (q.userId !== undefined) return exec(sql, "DELETE FROM console_sessions WHERE user_id = $1", [q.userId]);
      if (q.tokenHash !== undefined) return exec(sql, "DELETE FROM console_sessions WHERE token_hash = $1", [q.tokenHash]);
      if (q.expiredBy !== undefined) return exec(sql, "DELETE FROM console_sessions WHERE expires_at <= $1", [q.expiredBy]);
      return 0;
    },
    async listRules(kind, tenant) {
      return (tenant === undefined ? await rows(sql, "SELECT * FROM inbound_rules WHERE kind = $1 ORDER BY created_at, id", [kind])
        : await rows(sql, "SELECT * FROM inbound_rules WHERE kind = $1 AND tenant_id = $2 ORDER BY created_at, id", [kind, tenant])).map((r) => toRule(r));
    },
    async getRule(kind, id) {
      const r = await one(sql, "SELECT * FROM inbound_rules WHERE kind = $1 AND id = $2", [kind, id]);
      return r ? toRule(r) : null;
    },
    async insertRule(rule) {
      await exec(sql, "INSERT INTO inbound_rules (id, kind, domain_id, tenant_id, spec, created_at) VALUES ($1, $2, $3, $4, $5, $6)",
        [rule.id, rule.kind, rule.domainId, rule.tenantId ?? 0, JSON.stringify(rule.spec), rule.createdAt]);
    },
    async updateRule(rule) {
      return (await exec(sql, "UPDATE inbound_rules SET spec = $1, domain_id = $2 WHERE kind = $3 AND id = $4",
        [JSON.stringify(rule.spec), rule.domainId, rule.kind, rule.id])) > 0;
    },
    async deleteRule(kind, id) {
      return (await exec(sql, "DELETE FROM inbound_rules WHERE kind = $1 AND id = $2", [kind, id])) > 0;
    },
  };
}

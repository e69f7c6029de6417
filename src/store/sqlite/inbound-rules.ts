// control.sqlite: the inbound routing rules of every vendor API, one row each with its spec as JSON.
import type { Database } from "bun:sqlite";
import type { InboundRule, InboundRuleStore, RuleKind } from "../../core/inbound/model.ts";
import { json } from "./db.ts";

type Row = Record<string, unknown>;

export const toRule = <K extends RuleKind>(r: Row): InboundRule<K> => ({
  id: r.id as string, kind: r.kind as K, domainId: (r.domain_id as number | null) ?? null, tenantId: Number(r.tenant_id ?? 0),
  spec: json(r.spec, {}) as InboundRule<K>["spec"], createdAt: r.created_at as number,
});

export function createInboundRuleStore(db: Database): InboundRuleStore {
  const list = db.query("SELECT * FROM inbound_rules WHERE kind = ? ORDER BY created_at, id");
  const listOf = db.query("SELECT * FROM inbound_rules WHERE kind = ? AND tenant_id = ? ORDER BY created_at, id");
  const get = db.query("SELECT * FROM inbound_rules WHERE kind = ? AND id = ?");
  return {
    async listRules(kind, tenant) { return ((tenant === undefined ? list.all(kind) : listOf.all(kind, tenant)) as Row[]).map((r) => toRule(r)); },
    async getRule(kind, id) { const r = get.get(kind, id) as Row | null; return r ? toRule(r) : null; },
    async insertRule(rule) {
      db.query("INSERT INTO inbound_rules (id, kind, domain_id, tenant_id, spec, created_at) VALUES (?, ?, ?, ?, ?, ?)")
        .run(rule.id, rule.kind, rule.domainId, rule.tenantId ?? 0, JSON.stringify(rule.spec), rule.createdAt);
    },
    async updateRule(rule) {
      return db.query("UPDATE inbound_rules SET spec = ?, domain_id = ? WHERE kind = ? AND id = ?")
        .run(JSON.stringify(rule.spec), rule.domainId, rule.kind, rule.id).changes > 0;
    },
    async deleteRule(kind, id) { return db.query("DELETE FROM inbound_rules WHERE kind = ? AND id = ?").run(kind, id).changes > 0; },
  };
}

// control.sqlite: the account, domains, DKIM keys, API keys, SMTP credentials and webhook targets.
import type { Database } from "bun:sqlite";
import type { Account, Domain, DomainSettings, DomainState } from "../../core/model.ts";
import type { ControlStore, Credential, NewDomain, StoredKey, WebhookTarget } from "../../core/store-port.ts";
import { bool, json } from "./db.ts";
import { createInboundRuleStore } from "./inbound-rules.ts";
import { createSendControlStore } from "./send-controls.ts";
import { createSessionStatements } from "./sessions.ts";
import { createEgressCounters } from "./egress-counters.ts";
import { createAlertStore } from "./alerts.ts";
import { createTrackingHostStore, toTracking } from "./tracking-hosts.ts";
import { createTeamStore } from "./team.ts";
import { createSignInStore } from "./signins.ts";
import { createTenantStore } from "./tenants.ts";
import { createBlocklistHistory } from "./blocklists.ts";
import { createDkimKeyStore } from "./dkim-keys.ts";
import { createTlsReportCounts } from "./tls-report-counts.ts";

type Row = Record<string, unknown>;

/** A row's owning tenant: absent for the primary (0), so objects read back equal those written without one. */
const tenantOf = (r: Row): { tenantId?: number } => (Number(r.tenant_id ?? 0) ? { tenantId: Number(r.tenant_id) } : {});

export const toDomain = (r: Row): Domain => ({
  id: r.id as number, name: r.name as string, zone: r.zone as string, state: r.state as DomainState,
  wildcard: bool(r.wildcard), dkimSelector: r.dkim_selector as string, validation: bool(r.validation),
  botDetection: bool(r.bot_detection), openTracking: bool(r.open_tracking), clickTracking: bool(r.click_tracking),
  unsubscribeTracking: bool(r.unsubscribe_tracking), inbound: bool(r.inbound), limitMax: r.limit_max as number, limitWindow: r.limit_window as string,
  pool: (r.pool as string | undefined) ?? "", createdAt: r.created_at as number, updatedAt: r.updated_at as number,
  tracking: toTracking(r), ...tenantOf(r),
});

export const toKey = (r: Row): StoredKey => ({
  id: r.id as string, kind: r.kind as StoredKey["kind"], domainId: (r.domain_id as number | null) ?? null,
  label: r.label as string, hash: r.hash as string, grants: json<string[]>(r.grants, []),
  createdAt: r.created_at as number, lastUsedAt: (r.last_used_at as number | null) ?? null,
  revokedAt: (r.revoked_at as number | null) ?? null, ...tenantOf(r),
});

export const toWebhook = (r: Row): WebhookTarget => ({
  id: r.id as string, domainId: (r.domain_id as number | null) ?? null, events: json<string[]>(r.events, []),
  url: r.url as string, format: r.format as WebhookTarget["format"], extra: json(r.extra, {}), createdAt: r.created_at as number,
  ...tenantOf(r),
});

export const SETTING_COLUMNS: Record<keyof DomainSettings | "state" | "wildcard", string> = {
  validation: "validation", botDetection: "bot_detection", openTracking: "open_tracking", clickTracking: "click_tracking",
  unsubscribeTracking: "unsubscribe_tracking", inbound: "inbound", limitMax: "limit_max", limitWindow: "limit_window", pool: "pool", state: "state", wildcard: "wildcard",
};

export function createControlStore(db: Database): ControlStore {
  const dataVersion = db.query("PRAGMA data_version");
  const q = {
    domainByName: db.query("SELECT * FROM domains WHERE name = ?"),
    domainById: db.query("SELECT * FROM domains WHERE id = ?"),
    key: db.query("SELECT * FROM api_keys WHERE id = ?"),
    touch: db.query("UPDATE api_keys SET last_used_at = ? WHERE id = ?"),
  };
  return {
    ...createInboundRuleStore(db),
    ...createSendControlStore(db),
    ...createSessionStatements(db),
    ...createEgressCounters(db),
    ...createAlertStore(db),
    ...createTrackingHostStore(db),
    ...createTeamStore(db),
    ...createSignInStore(db),
    ...createTenantStore(db),
    ...createBlocklistHistory(db),
    ...createDkimKeyStore(db),
    ...createTlsReportCounts(db),
    async getAccount() {
      const r = db.query("SELECT * FROM account LIMIT 1").get() as Row | null;
      return r ? { id: r.id as number, webhookSigningKey: r.webhook_signing_key as string, createdAt: r.created_at as number } : null;
    },
    async createAccount(a: Account & { secret: string }) {
      db.query("INSERT INTO account (id, webhook_signing_key, secret, created_at) VALUES (?, ?, ?, ?)").run(a.id, a.webhookSigningKey, a.secret, a.createdAt);
    },
    async getSecret() {
      const r = db.query("SELECT secret FROM account LIMIT 1").get() as Row | null;
      if (!r) throw new Error("no account: run `postern init` or `postern serve` once");
      return r.secret as string;
    },
    async getEventWebhookKeys() {
      const r = db.query("SELECT event_webhook_private_key AS k, event_webhook_public_key AS p FROM account LIMIT 1").get() as Row | null;
      return r && r.k ? { privateKeyPem: r.k as string, publicKey: r.p as string } : null;
    },
    async setEventWebhookKeys(keys) {
      db.query("UPDATE account SET event_webhook_private_key = ?, event_webhook_public_key = ?").run(keys.privateKeyPem, keys.publicKey);
    },
    async domainWebhookKey(domainId: number, fresh: string) {
      // Set once: concurrent first uses agree on whichever key was written first.
      db.query("UPDATE domains SET webhook_signing_key = ? WHERE id = ? AND webhook_signing_key = ''").run(fresh, domainId);
      return ((db.query("SELECT webhook_signing_key AS k FROM domains WHERE id = ?").get(domainId) as Row | null)?.k as string | undefined) || null;
    },
    async insertDomain(d: NewDomain, now: number) {
      return db.transaction(() => {
        const r = db.query(`INSERT INTO domains (name, zone, wildcard, dkim_selector, validation, bot_detection, open_tracking,
          click_tracking, unsubscribe_tracking, limit_max, limit_window, created_at, updated_at, tenant_id)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`).get(d.name, d.zone, d.wildcard ? 1 : 0, d.dkimSelector,
          d.validation ? 1 : 0, d.botDetection ? 1 : 0, d.openTracking ? 1 : 0, d.clickTracking ? 1 : 0,
          d.unsubscribeTracking ? 1 : 0, d.limitMax, d.limitWindow, now, now, d.tenantId ?? 0) as Row;
        const ins = db.query(`INSERT INTO dkim_keys (domain_id, selector, algorithm, private_key, public_key, state, created_at, activated_at)
          VALUES (?, ?, ?, ?, ?, 'active', ?, ?)`);
        for (const k of d.keys) ins.run(r.id as number, k.selector, k.algorithm, k.privateKeyPem, k.publicKey, now, now);
        return toDomain(r);
      }).immediate();
    },
    async getDomain(name: string) {
      const r = q.domainByName.get(name.toLowerCase()) as Row | null;
      return r ? toDomain(r) : null;
    },
    // data_version moves when another connection (another process: the CLI) commits to this file.
    changeMark: async () => (dataVersion.get() as { data_version: number }).data_version,
    async getDomainById(id: number) {
      const r = q.domainById.get(id) as Row | null;
      return r ? toDomain(r) : null;
    },
    async listDomains(tenant?: number) {
      const rows = tenant === undefined ? db.query("SELECT * FROM domains ORDER BY id").all()
        : db.query("SELECT * FROM domains WHERE tenant_id = ? ORDER BY id").all(tenant);
      return (rows as Row[]).map(toDomain);
    },
    async updateDomain(name, patch, now) {
      const sets: string[] = [];
      const values: (string | number)[] = [];
      for (const [k, v] of Object.entries(patch)) {
        const col = SETTING_COLUMNS[k as keyof typeof SETTING_COLUMNS];
        if (!col || v === undefined) continue;
        sets.push(`${col} = ?`);
        values.push(typeof v === "boolean" ? (v ? 1 : 0) : (v as string | number));
      }
      sets.push("updated_at = ?");
      values.push(now, name.toLowerCase());
      const r = db.query(`UPDATE domains SET ${sets.join(", ")} WHERE name = ? RETURNING *`).get(...values) as Row | null;
      return r ? toDomain(r) : null;
    },
    async deleteDomain(name: string) {
      return db.query("DELETE FROM domains WHERE name = ?").run(name.toLowerCase()).changes > 0;
    },
    async insertKey(k: StoredKey) {
      db.query(`INSERT INTO api_keys (id, kind, domain_id, label, hash, grants, created_at, tenant_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
        .run(k.id, k.kind, k.domainId, k.label, k.hash, JSON.stringify(k.grants), k.createdAt, k.tenantId ?? 0);
    },
    async getKey(id: string) {
      const r = q.key.get(id) as Row | null;
      return r ? toKey(r) : null;
    },
    async listKeys(tenant?: number) {
      const rows = tenant === undefined ? db.query("SELECT * FROM api_keys WHERE revoked_at IS NULL ORDER BY created_at").all()
        : db.query("SELECT * FROM api_keys WHERE revoked_at IS NULL AND tenant_id = ? ORDER BY created_at").all(tenant);
      return (rows as Row[]).map(toKey);
    },
    async revokeKey(id: string, now: number) {
      return db.query("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL").run(now, id).changes > 0;
    },
    async updateKey(id: string, patch: { label?: string; grants?: string[] }) {
      const r = db.query(`UPDATE api_keys SET label = COALESCE(?, label), grants = COALESCE(?, grants) WHERE id = ? AND revoked_at IS NULL`)
        .run(patch.label ?? null, patch.grants ? JSON.stringify(patch.grants) : null, id);
      return r.changes > 0;
    },
    async touchKeys(used: Map<string, number>) {
      db.transaction(() => { for (const [id, at] of used) q.touch.run(at, id); })();
    },
    async upsertCredential(c: Credential) {
      db.query(`INSERT INTO smtp_credentials (domain_id, login, hash, created_at) VALUES (?, ?, ?, ?)
        ON CONFLICT (domain_id, login) DO UPDATE SET hash = excluded.hash`).run(c.domainId, c.login, c.hash, c.createdAt);
    },
    async getCredential(domainId: number, login: string) {
      const r = db.query("SELECT * FROM smtp_credentials WHERE domain_id = ? AND login = ?").get(domainId, login) as Row | null;
      return r ? { domainId, login, hash: r.hash as string, createdAt: r.created_at as number } : null;
    },
    async listCredentials(domainId: number) {
      const rows = db.query("SELECT * FROM smtp_credentials WHERE domain_id = ? ORDER BY login").all(domainId) as Row[];
      return rows.map((r) => ({ domainId, login: r.login as string, hash: r.hash as string, createdAt: r.created_at as number }));
    },
    async deleteCredential(domainId: number, login: string) {
      return db.query("DELETE FROM smtp_credentials WHERE domain_id = ? AND login = ?").run(domainId, login).changes > 0;
    },
    async insertWebhook(w: WebhookTarget) {
      db.query("INSERT INTO webhooks (id, domain_id, events, url, format, extra, created_at, tenant_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        .run(w.id, w.domainId, JSON.stringify(w.events), w.url, w.format, JSON.stringify(w.extra), w.createdAt, w.tenantId ?? 0);
    },
    async updateWebhook(w: WebhookTarget) {
      db.query("UPDATE webhooks SET events = ?, url = ?, format = ?, extra = ? WHERE id = ?")
        .run(JSON.stringify(w.events), w.url, w.format, JSON.stringify(w.extra), w.id);
    },
    async listWebhooks(domainId: number | null, tenant?: number) {
      const rows = domainId === null
        ? db.query("SELECT * FROM webhooks ORDER BY created_at").all()
        : db.query(`SELECT * FROM webhooks WHERE domain_id = ? OR (domain_id IS NULL
            AND tenant_id = (SELECT tenant_id FROM domains WHERE id = ?)) ORDER BY created_at`).all(domainId, domainId);
      return (rows as Row[]).map(toWebhook).filter((w) => tenant === undefined || (w.tenantId ?? 0) === tenant);
    },
    async deleteWebhook(id: string) {
      return db.query("DELETE FROM webhooks WHERE id = ?").run(id).changes > 0;
    },
  };
}

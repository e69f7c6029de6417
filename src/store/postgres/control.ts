// The control schema: the account, domains, DKIM keys, API keys, SMTP credentials and webhook
// targets, shared by every node of every zone (control_url).
import type { Account } from "../../core/model.ts";
import type { ControlStore, Credential, NewDomain, StoredKey, WebhookTarget } from "../../core/store-port.ts";
import { SETTING_COLUMNS, toDomain, toKey, toWebhook } from "../sqlite/control.ts";
import { exec, one, rows, type Sql } from "./db.ts";
import { createControlExtras } from "./control-extras.ts";
import { createEgressCounters } from "./egress-counters.ts";
import { createAlertStore } from "./alerts.ts";
import { createBlocklistHistory } from "./blocklists.ts";
import { createDkimKeyStore } from "./dkim-keys.ts";
import { createTlsReportCounts } from "./tls-report-counts.ts";
import { createSendControlStore } from "./send-controls.ts";
import { createTrackingHostStore } from "./tracking-hosts.ts";
import { createTeamStore } from "./team.ts";
import { createSignInStore } from "./signins.ts";
import { createTenantStore } from "./tenants.ts";

export function createControlStore(sql: Sql): ControlStore {
  return {
    ...createControlExtras(sql),
    ...createEgressCounters(sql),
    ...createAlertStore(sql),
    ...createBlocklistHistory(sql),
    ...createDkimKeyStore(sql),
    ...createTlsReportCounts(sql),
    ...createSendControlStore(sql),
    ...createTrackingHostStore(sql),
    ...createTeamStore(sql),
    ...createSignInStore(sql),
    ...createTenantStore(sql),
    async getAccount() {
      const r = await one(sql, "SELECT * FROM account LIMIT 1");
      return r ? { id: r.id as number, webhookSigningKey: r.webhook_signing_key as string, createdAt: r.created_at as number } : null;
    },
    async createAccount(a: Account & { secret: string }) {
      await exec(sql, "INSERT INTO account (id, webhook_signing_key, secret, created_at) VALUES ($1, $2, $3, $4)", [a.id, a.webhookSigningKey, a.secret, a.createdAt]);
    },
    async getSecret() {
      const r = await one(sql, "SELECT secret FROM account LIMIT 1");
      if (!r) throw new Error("no account: run `postern init` or `postern serve` once");
      return r.secret as string;
    },
    async getEventWebhookKeys() {
      const r = await one(sql, "SELECT event_webhook_private_key AS k, event_webhook_public_key AS p FROM account LIMIT 1");
      return r && r.k ? { privateKeyPem: r.k as string, publicKey: r.p as string } : null;
    },
    async setEventWebhookKeys(keys) {
      await exec(sql, "UPDATE account SET event_webhook_private_key = $1, event_webhook_public_key = $2", [keys.privateKeyPem, keys.publicKey]);
    },
    async domainWebhookKey(domainId, fresh) {
      // Set once: concurrent first uses (on any node) agree on whichever key was written first.
      await exec(sql, "UPDATE domains SET webhook_signing_key = $1 WHERE id = $2 AND webhook_signing_key = ''", [fresh, domainId]);
      return ((await one(sql, "SELECT webhook_signing_key AS k FROM domains WHERE id = $1", [domainId]))?.k as string | undefined) || null;
    },
    async insertDomain(d: NewDomain, now: number) {
      return sql.begin(async (tx) => {
        const [r] = await rows(tx, `INSERT INTO domains (name, zone, wildcard, dkim_selector, validation, bot_detection, open_tracking,
          click_tracking, unsubscribe_tracking, limit_max, limit_window, created_at, updated_at, tenant_id)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, $13) RETURNING *`, [d.name, d.zone, d.wildcard, d.dkimSelector,
          d.validation, d.botDetection, d.openTracking, d.clickTracking, d.unsubscribeTracking, d.limitMax, d.limitWindow, now, d.tenantId ?? 0]);
        for (const k of d.keys) {
          await exec(tx, `INSERT INTO dkim_keys (domain_id, selector, algorithm, private_key, public_key, state, created_at, activated_at)
            VALUES ($1, $2, $3, $4, $5, 'active', $6, $6)`, [r!.id as number, k.selector, k.algorithm, k.privateKeyPem, k.publicKey, now]);
        }
        return toDomain(r!);
      });
    },
    async getDomain(name) {
      const r = await one(sql, "SELECT * FROM domains WHERE name = $1", [name.toLowerCase()]);
      return r ? toDomain(r) : null;
    },
    // Bumped by a trigger on every statement that writes domains (migrations.ts), in its transaction.
    changeMark: async () => Number((await one(sql, "SELECT COALESCE(MAX(n), 0) AS n FROM control_changes"))!.n),
    async getDomainById(id) {
      const r = await one(sql, "SELECT * FROM domains WHERE id = $1", [id]);
      return r ? toDomain(r) : null;
    },
    async listDomains(tenant?: number) {
      return (tenant === undefined ? await rows(sql, "SELECT * FROM domains ORDER BY id")
        : await rows(sql, "SELECT * FROM domains WHERE tenant_id = $1 ORDER BY id", [tenant])).map(toDomain);
    },
    async updateDomain(name, patch, now) {
      const sets: string[] = [];
      const values: (string | number | boolean)[] = [];
      for (const [k, v] of Object.entries(patch)) {
        const col = SETTING_COLUMNS[k as keyof typeof SETTING_COLUMNS];
        if (!col || v === undefined) continue;
        values.push(v as string | number | boolean);
        sets.push(`${col} = $${values.length}`);
      }
      values.push(now, name.toLowerCase());
      sets.push(`updated_at = $${values.length - 1}`);
      const r = await one(sql, `UPDATE domains SET ${sets.join(", ")} WHERE name = $${values.length} RETURNING *`, values);
      return r ? toDomain(r) : null;
    },
    async deleteDomain(name) {
      return (await exec(sql, "DELETE FROM domains WHERE name = $1", [name.toLowerCase()])) > 0;
    },
    async insertKey(k: StoredKey) {
      await exec(sql, "INSERT INTO api_keys (id, kind, domain_id, label, hash, grants, created_at, tenant_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        [k.id, k.kind, k.domainId, k.label, k.hash, JSON.stringify(k.grants), k.createdAt, k.tenantId ?? 0]);
    },
    async getKey(id) {
      const r = await one(sql, "SELECT * FROM api_keys WHERE id = $1", [id]);
      return r ? toKey(r) : null;
    },
    async listKeys(tenant?: number) {
      return (tenant === undefined ? await rows(sql, "SELECT * FROM api_keys WHERE revoked_at IS NULL ORDER BY created_at, id")
        : await rows(sql, "SELECT * FROM api_keys WHERE revoked_at IS NULL AND tenant_id = $1 ORDER BY created_at, id", [tenant])).map(toKey);
    },
    async revokeKey(id, now) {
      return (await exec(sql, "UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL", [now, id])) > 0;
    },
    async updateKey(id, patch) {
      return (await exec(sql, "UPDATE api_keys SET label = COALESCE($1, label), grants = COALESCE($2, grants) WHERE id = $3 AND revoked_at IS NULL",
        [patch.label ?? null, patch.grants ? JSON.stringify(patch.grants) : null, id])) > 0;
    },
    async touchKeys(used) {
      if (used.size === 0) return;
      await exec(sql, `UPDATE api_keys k SET last_used_at = GREATEST(COALESCE(k.last_used_at, 0), u.at)
        FROM unnest($1::text[], $2::bigint[]) AS u(id, at) WHERE k.id = u.id`, [[...used.keys()], [...used.values()]]);
    },
    async upsertCredential(c: Credential) {
      await exec(sql, `INSERT INTO smtp_credentials (domain_id, login, hash, created_at) VALUES ($1, $2, $3, $4)
        ON CONFLICT (domain_id, login) DO UPDATE SET hash = excluded.hash`, [c.domainId, c.login, c.hash, c.createdAt]);
    },
    async getCredential(domainId, login) {
      const r = await one(sql, "SELECT * FROM smtp_credentials WHERE domain_id = $1 AND login = $2", [domainId, login]);
      return r ? { domainId, login, hash: r.hash as string, createdAt: r.created_at as number } : null;
    },
    async listCredentials(domainId) {
      const list = await rows(sql, "SELECT * FROM smtp_credentials WHERE domain_id = $1 ORDER BY login", [domainId]);
      return list.map((r) => ({ domainId, login: r.login as string, hash: r.hash as string, createdAt: r.created_at as number }));
    },
    async deleteCredential(domainId, login) {
      return (await exec(sql, "DELETE FROM smtp_credentials WHERE domain_id = $1 AND login = $2", [domainId, login])) > 0;
    },
    async insertWebhook(w: WebhookTarget) {
      await exec(sql, "INSERT INTO webhooks (id, domain_id, events, url, format, extra, created_at, tenant_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        [w.id, w.domainId, JSON.stringify(w.events), w.url, w.format, JSON.stringify(w.extra), w.createdAt, w.tenantId ?? 0]);
    },
    async updateWebhook(w: WebhookTarget) {
      await exec(sql, "UPDATE webhooks SET events = $1, url = $2, format = $3, extra = $4 WHERE id = $5",
        [JSON.stringify(w.events), w.url, w.format, JSON.stringify(w.extra), w.id]);
    },
    async listWebhooks(domainId, tenant) {
      const list = domainId === null
        ? await rows(sql, "SELECT * FROM webhooks ORDER BY created_at, id")
        : await rows(sql, `SELECT * FROM webhooks WHERE domain_id = $1 OR (domain_id IS NULL
            AND tenant_id = (SELECT tenant_id FROM domains WHERE id = $1)) ORDER BY created_at, id`, [domainId]);
      return list.map(toWebhook).filter((w) => tenant === undefined || (w.tenantId ?? 0) === tenant);
    },
    async deleteWebhook(id) {
      return (await exec(sql, "DELETE FROM webhooks WHERE id = $1", [id])) > 0;
    },
  };
}

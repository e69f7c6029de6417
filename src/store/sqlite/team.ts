// Console users, invitations and the audit log inside control.sqlite (core/team/store-port.ts,
// core/audit-port.ts). The audit log is only ever appended to and read; retention drops old rows.
import type { Database } from "bun:sqlite";
import type { TeamStore, StoredUser, UserPatch } from "../../core/team/store-port.ts";
import type { AuditQuery, AuditRecord, AuditStore } from "../../core/audit-port.ts";
import { json } from "./db.ts";

type Row = Record<string, unknown>;

export const toUser = (r: Row): StoredUser => ({
  id: r.id as string, email: r.email as string, role: r.role as StoredUser["role"], tenant: (r.tenant as number | null) ?? null,
  passwordHash: r.password_hash as string, totpSecret: r.totp_secret as string, totpPending: r.totp_pending as string,
  recoveryCodes: json<string[]>(r.recovery_codes, []), totpStep: Number(r.totp_step ?? 0), oidcIssuer: (r.oidc_issuer as string | null) ?? null,
  oidcSubject: (r.oidc_subject as string | null) ?? null, createdAt: Number(r.created_at), updatedAt: Number(r.updated_at),
});

export const toAudit = (r: Row): AuditRecord => ({
  id: Number(r.id), at: Number(r.at), actorKind: r.actor_kind as AuditRecord["actorKind"], actorId: r.actor_id as string,
  tenant: Number(r.tenant), action: r.action as string, target: r.target as string, ip: r.ip as string,
});

export const USER_COLUMNS: Record<keyof UserPatch, string> = {
  role: "role", tenant: "tenant", passwordHash: "password_hash", totpSecret: "totp_secret", totpPending: "totp_pending",
  recoveryCodes: "recovery_codes", totpStep: "totp_step", oidcIssuer: "oidc_issuer", oidcSubject: "oidc_subject",
};

export const userValue = (k: keyof UserPatch, v: unknown) => (k === "recoveryCodes" ? JSON.stringify(v) : v) as string | number | null;

/** The WHERE clause of an audit query; `p(n)` spells the n-th placeholder of the engine. */
export function auditWhere(q: AuditQuery, p: (n: number) => string): { where: string; params: (string | number)[] } {
  const parts: string[] = [];
  const params: (string | number)[] = [];
  const add = (sql: (ph: string) => string, v: string | number) => { params.push(v); parts.push(sql(p(params.length))); };
  if (q.from !== undefined) add((x) => `at >= ${x}`, q.from);
  if (q.to !== undefined) add((x) => `at <= ${x}`, q.to);
  if (q.actorKind) add((x) => `actor_kind = ${x}`, q.actorKind);
  if (q.actorId) add((x) => `actor_id = ${x}`, q.actorId);
  if (q.action) {
    if (q.action.includes(".")) add((x) => `action = ${x}`, q.action);
    else add((x) => `substr(action, 1, ${q.action!.length + 1}) = ${x}`, `${q.action}.`);
  }
  if (q.beforeId !== undefined) add((x) => `id < ${x}`, q.beforeId);
  if (q.tenant !== undefined) add((x) => `tenant = ${x}`, q.tenant);
  return { where: parts.length ? `WHERE ${parts.join(" AND ")}` : "", params };
}

export function createTeamStore(db: Database): TeamStore & AuditStore {
  return {
    async insertUser(u) {
      db.query(`INSERT INTO users (id, email, role, tenant, password_hash, totp_secret, totp_pending, recovery_codes, totp_step, oidc_issuer, oidc_subject,
        created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(u.id, u.email.toLowerCase(), u.role, u.tenant, u.passwordHash,
        u.totpSecret, u.totpPending, JSON.stringify(u.recoveryCodes), u.totpStep, u.oidcIssuer, u.oidcSubject, u.createdAt, u.updatedAt);
    },
    async getUser(q) {
      const r = "id" in q ? db.query("SELECT * FROM users WHERE id = ?").get(q.id)
        : "email" in q ? db.query("SELECT * FROM users WHERE email = ?").get(q.email.toLowerCase())
        : db.query("SELECT * FROM users WHERE oidc_issuer = ? AND oidc_subject = ?").get(q.issuer, q.subject);
      return r ? toUser(r as Row) : null;
    },
    async listUsers() {
      return (db.query("SELECT * FROM users ORDER BY email").all() as Row[]).map(toUser);
    },
    async updateUser(id, patch, now) {
      const keys = (Object.keys(patch) as (keyof UserPatch)[]).filter((k) => patch[k] !== undefined);
      const sets = keys.map((k) => `${USER_COLUMNS[k]} = ?`).concat("updated_at = ?");
      return db.query(`UPDATE users SET ${sets.join(", ")} WHERE id = ?`).run(...keys.map((k) => userValue(k, patch[k])), now, id).changes > 0;
    },
    async deleteUser(id) {
      return db.query("DELETE FROM users WHERE id = ?").run(id).changes > 0;
    },
    async insertInvitation(i) {
      db.query("INSERT INTO invitations (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)").run(i.tokenHash, i.userId, i.createdAt, i.expiresAt);
    },
    async takeInvitation(tokenHash) {
      const r = db.query("DELETE FROM invitations WHERE token_hash = ? RETURNING *").get(tokenHash) as Row | null;
      return r ? { tokenHash, userId: r.user_id as string, createdAt: Number(r.created_at), expiresAt: Number(r.expires_at) } : null;
    },
    async appendAudit(e) {
      db.query("INSERT INTO audit_log (at, actor_kind, actor_id, tenant, action, target, ip) VALUES (?, ?, ?, ?, ?, ?, ?)")
        .run(e.at, e.actorKind, e.actorId, e.tenant, e.action, e.target, e.ip);
    },
    async listAudit(q) {
      const { where, params } = auditWhere(q, () => "?");
      return (db.query(`SELECT * FROM audit_log ${where} ORDER BY id DESC LIMIT ?`).all(...params, q.limit) as Row[]).map(toAudit);
    },
    async expireAudit(before, limit) {
      return db.query("DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log WHERE at < ? ORDER BY id LIMIT ?)").run(before, limit).changes;
    },
  };
}

// Console users, invitations and the audit log in the control schema (as sqlite/team.ts).
import type { TeamStore, UserPatch } from "../../core/team/store-port.ts";
import type { AuditStore } from "../../core/audit-port.ts";
import { USER_COLUMNS, auditWhere, toAudit, toUser, userValue } from "../sqlite/team.ts";
import { exec, one, rows, type Sql } from "./db.ts";

export function createTeamStore(sql: Sql): TeamStore & AuditStore {
  return {
    async insertUser(u) {
      await exec(sql, `INSERT INTO users (id, email, role, tenant, password_hash, totp_secret, totp_pending, recovery_codes, totp_step, oidc_issuer, oidc_subject,
        created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`, [u.id, u.email.toLowerCase(), u.role, u.tenant,
        u.passwordHash, u.totpSecret, u.totpPending, JSON.stringify(u.recoveryCodes), u.totpStep, u.oidcIssuer, u.oidcSubject, u.createdAt, u.updatedAt]);
    },
    async getUser(q) {
      const r = "id" in q ? await one(sql, "SELECT * FROM users WHERE id = $1", [q.id])
        : "email" in q ? await one(sql, "SELECT * FROM users WHERE email = $1", [q.email.toLowerCase()])
        : await one(sql, "SELECT * FROM users WHERE oidc_issuer = $1 AND oidc_subject = $2", [q.issuer, q.subject]);
      return r ? toUser(r) : null;
    },
    async listUsers() {
      return (await rows(sql, "SELECT * FROM users ORDER BY email")).map(toUser);
    },
    async updateUser(id, patch, now) {
      const keys = (Object.keys(patch) as (keyof UserPatch)[]).filter((k) => patch[k] !== undefined);
      const sets = keys.map((k, i) => `${USER_COLUMNS[k]} = $${i + 1}`).concat(`updated_at = $${keys.length + 1}`);
      return (await exec(sql, `UPDATE users SET ${sets.join(", ")} WHERE id = $${keys.length + 2}`,
        [...keys.map((k) => userValue(k, patch[k])), now, id])) > 0;
    },
    async deleteUser(id) {
      return (await exec(sql, "DELETE FROM users WHERE id = $1", [id])) > 0;
    },
    async insertInvitation(i) {
      await exec(sql, "INSERT INTO invitations (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)", [i.tokenHash, i.userId, i.createdAt, i.expiresAt]);
    },
    async takeInvitation(tokenHash) {
      const r = await one(sql, "DELETE FROM invitations WHERE token_hash = $1 RETURNING *", [tokenHash]);
      return r ? { tokenHash, userId: r.user_id as string, createdAt: Number(r.created_at), expiresAt: Number(r.expires_at) } : null;
    },
    async appendAudit(e) {
      await exec(sql, "INSERT INTO audit_log (at, actor_kind, actor_id, tenant, action, target, ip) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        [e.at, e.actorKind, e.actorId, e.tenant, e.action, e.target, e.ip]);
    },
    async listAudit(q) {
      const { where, params } = auditWhere(q, (n) => `$${n}`);
      return (await rows(sql, `SELECT * FROM audit_log ${where} ORDER BY id DESC LIMIT $${params.length + 1}`, [...params, q.limit])).map(toAudit);
    },
    async expireAudit(before, limit) {
      return exec(sql, "DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log WHERE at < $1 ORDER BY id LIMIT $2)", [before, limit]);
    },
  };
}

// Sign-ins in progress and a console session's chosen tenant in the control schema (as sqlite/signins.ts):
// shared by every node, so a sign-in started on one node finishes on another.
import type { SignInStore } from "../../core/team/store-port.ts";
import { toPending } from "../sqlite/signins.ts";
import { exec, one, type Sql } from "./db.ts";


export function createSignInStore(sql: Sql): SignInStore {
  return {
    async insertPendingSignIn(p) {
      await exec(sql, `INSERT INTO pending_signins (key_hash, kind, nonce, verifier, user_id, client, created_at, expires_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [p.keyHash, p.kind, p.nonce, p.verifier, p.userId, p.client, p.createdAt, p.expiresAt]);
    },
    async takePendingSignIn(keyHash) {
      const r = await one(sql, "DELETE FROM pending_signins WHERE key_hash = $1 RETURNING *", [keyHash]);
      return r ? toPending(r) : null;
    },
    async countPendingSignIns(q) {
      const r = q.client === undefined ? await one(sql, "SELECT COUNT(*) AS n FROM pending_signins")
        : await one(sql, "SELECT COUNT(*) AS n FROM pending_signins WHERE client = $1", [q.client]);
      return Number(r!.n);
    },
    async deletePendingSignIns(q) {
      return exec(sql, "DELETE FROM pending_signins WHERE expires_at <= $1", [q.expiredBy]);
    },
    async setSessionTenant(tokenHash, tenant) {
      return (await exec(sql, "UPDATE console_sessions SET tenant = $1 WHERE token_hash = $2", [tenant, tokenHash])) > 0;
    },
  };
}

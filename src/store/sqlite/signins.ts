// Sign-ins in progress (core/team/store-port.ts PendingSignIn) and a console session's chosen
// tenant, inside control.sqlite. Taking a pending sign-in deletes it in the same statement: used once.
import type { Database } from "bun:sqlite";
import type { PendingSignIn, SignInStore } from "../../core/team/store-port.ts";

type Row = Record<string, unknown>;

export const toPending = (r: Row): PendingSignIn => ({
  keyHash: r.key_hash as string, kind: r.kind as PendingSignIn["kind"], nonce: r.nonce as string, verifier: r.verifier as string,
  userId: (r.user_id as string | null) ?? null, client: r.client as string, createdAt: Number(r.created_at), expiresAt: Number(r.expires_at),
});

export function createSignInStore(db: Database): SignInStore {
  return {
    async insertPendingSignIn(p) {
      db.query(`INSERT INTO pending_signins (key_hash, kind, nonce, verifier, user_id, client, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
        .run(p.keyHash, p.kind, p.nonce, p.verifier, p.userId, p.client, p.createdAt, p.expiresAt);
    },
    async takePendingSignIn(keyHash) {
      const r = db.query("DELETE FROM pending_signins WHERE key_hash = ? RETURNING *").get(keyHash) as Row | null;
      return r ? toPending(r) : null;
    },
    async countPendingSignIns(q) {
      const r = (q.client === undefined ? db.query("SELECT COUNT(*) AS n FROM pending_signins").get()
        : db.query("SELECT COUNT(*) AS n FROM pending_signins WHERE client = ?").get(q.client)) as Row;
      return Number(r.n);
    },
    async deletePendingSignIns(q) {
      return db.query("DELETE FROM pending_signins WHERE expires_at <= ?").run(q.expiredBy).changes;
    },
    async setSessionTenant(tokenHash, tenant) {
      return db.query("UPDATE console_sessions SET tenant = ? WHERE token_hash = ?").run(tenant, tokenHash).changes > 0;
    },
  };
}

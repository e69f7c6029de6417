// console_sessions inside control.sqlite: web console sign-ins, looked up by the hash of the
// cookie's token (a copy of the database holds no usable session).
import type { Database } from "bun:sqlite";
import type { ConsoleSession, ControlStore } from "../../core/store-port.ts";

type Row = Record<string, unknown>;
type SessionMethods = Pick<ControlStore, "insertSession" | "getSession" | "deleteSessions">;

export function createSessionStatements(db: Database): SessionMethods {
  const byHash = db.query("SELECT * FROM console_sessions WHERE token_hash = ?");
  return {
    async insertSession(s: ConsoleSession) {
      db.query("INSERT INTO console_sessions (token_hash, key_id, user_id, csrf, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)")
        .run(s.tokenHash, s.keyId, s.userId ?? null, s.csrf, s.createdAt, s.expiresAt);
    },
    async getSession(tokenHash: string) {
      const r = byHash.get(tokenHash) as Row | null;
      return r ? { tokenHash, keyId: (r.key_id as string | null) ?? null, userId: (r.user_id as string | null) ?? null, csrf: r.csrf as string, createdAt: r.created_at as number, expiresAt: r.expires_at as number,
        ...(r.tenant !== null && r.tenant !== undefined ? { tenant: Number(r.tenant) } : {}) } : null;
    },
    async deleteSessions(q: { tokenHash?: string; expiredBy?: number; userId?: string }) {
      if (q.userId !== undefined) return db.query("DELETE FROM console_sessions WHERE user_id = ?").run(q.userId).changes;
      if (q.tokenHash !== undefined) return db.query("DELETE FROM console_sessions WHERE token_hash = ?").run(q.tokenHash).changes;
      if (q.expiredBy !== undefined) return db.query("DELETE FROM console_sessions WHERE expires_at <= ?").run(q.expiredBy).changes;
      return 0;
    },
  };
}

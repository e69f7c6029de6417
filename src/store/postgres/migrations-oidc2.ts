// Sign-ins in progress and a console session's chosen tenant, as the SQLite engine's (sqlite/migrations-oidc2.ts).
export const OIDC2_CONTROL_MIGRATIONS: string[] = [
  `CREATE TABLE pending_signins (
     key_hash TEXT PRIMARY KEY, kind TEXT NOT NULL, nonce TEXT NOT NULL DEFAULT '', verifier TEXT NOT NULL DEFAULT '',
     user_id TEXT REFERENCES users(id) ON DELETE CASCADE, client TEXT NOT NULL DEFAULT '',
     created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL);
   CREATE INDEX pending_signins_expiry ON pending_signins (expires_at);
   CREATE INDEX pending_signins_client ON pending_signins (client);
   ALTER TABLE console_sessions ADD COLUMN tenant INTEGER;`,
];

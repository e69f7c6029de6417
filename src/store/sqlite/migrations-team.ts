// The team's control tables (contract §14): the audit log, console users and their invitations,
// and console sessions that belong to a key or to a user. Spread at the end of CONTROL_MIGRATIONS.
export const TEAM_CONTROL_MIGRATIONS: string[] = [
  // Append-only: the triggers refuse any UPDATE, whoever asks; only retention deletes (old rows).
  `CREATE TABLE audit_log (
     id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, actor_kind TEXT NOT NULL, actor_id TEXT NOT NULL,
     tenant INTEGER NOT NULL DEFAULT 0, action TEXT NOT NULL, target TEXT NOT NULL, ip TEXT NOT NULL);
   CREATE INDEX audit_log_at ON audit_log(at);
   CREATE TRIGGER audit_log_append_only BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;`,
  // Console users: an argon2id password (empty until an invitation is accepted), an optional TOTP
  // secret with hashed recovery codes, and an OpenID Connect link (issuer and subject, once set, for good).
  `CREATE TABLE users (
     id TEXT PRIMARY KEY, email TEXT NOT NULL UNIQUE, role TEXT NOT NULL, tenant INTEGER,
     password_hash TEXT NOT NULL DEFAULT '', totp_secret TEXT NOT NULL DEFAULT '', totp_pending TEXT NOT NULL DEFAULT '',
     recovery_codes TEXT NOT NULL DEFAULT '[]', totp_step BIGINT NOT NULL DEFAULT 0, oidc_issuer TEXT, oidc_subject TEXT,
     created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
     UNIQUE (oidc_issuer, oidc_subject));
   CREATE TABLE invitations (
     token_hash TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
   CREATE TABLE console_sessions_new (
     token_hash TEXT PRIMARY KEY, key_id TEXT REFERENCES api_keys(id) ON DELETE CASCADE,
     user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
     csrf TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
   INSERT INTO console_sessions_new (token_hash, key_id, csrf, created_at, expires_at)
     SELECT token_hash, key_id, csrf, created_at, expires_at FROM console_sessions;
   DROP TABLE console_sessions;
   ALTER TABLE console_sessions_new RENAME TO console_sessions;
   CREATE INDEX console_sessions_expiry ON console_sessions(expires_at);`,
];

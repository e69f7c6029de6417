// The team's control tables (contract §14), as the SQLite engine's (sqlite/migrations-team.ts).
export const TEAM_CONTROL_MIGRATIONS: string[] = [
  `CREATE TABLE audit_log (
     id BIGSERIAL PRIMARY KEY, at BIGINT NOT NULL, actor_kind TEXT NOT NULL, actor_id TEXT NOT NULL,
     tenant INTEGER NOT NULL DEFAULT 0, action TEXT NOT NULL, target TEXT NOT NULL, ip TEXT NOT NULL);
   CREATE INDEX audit_log_at ON audit_log (at);
   CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS
     $$ BEGIN RAISE EXCEPTION 'the audit log is append-only'; END $$;
   CREATE TRIGGER audit_log_append_only BEFORE UPDATE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();`,
  `CREATE TABLE users (
     id TEXT PRIMARY KEY, email TEXT NOT NULL UNIQUE, role TEXT NOT NULL, tenant INTEGER,
     password_hash TEXT NOT NULL DEFAULT '', totp_secret TEXT NOT NULL DEFAULT '', totp_pending TEXT NOT NULL DEFAULT '',
     recovery_codes TEXT NOT NULL DEFAULT '[]', totp_step BIGINT NOT NULL DEFAULT 0, oidc_issuer TEXT, oidc_subject TEXT,
     created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL,
     UNIQUE (oidc_issuer, oidc_subject));
   CREATE TABLE invitations (
     token_hash TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL);
   ALTER TABLE console_sessions ALTER COLUMN key_id DROP NOT NULL;
   ALTER TABLE console_sessions ADD COLUMN user_id TEXT REFERENCES users(id) ON DELETE CASCADE;`,
];

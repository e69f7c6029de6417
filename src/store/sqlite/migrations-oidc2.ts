// Sign-ins in progress kept in the store (docs/team.md): an OpenID Connect flow between the
// redirect to the provider and its callback, and a proven OIDC sign-in waiting for the user's TOTP
// code, so any node can finish what another started. And the tenant a console session acts for
// (the tenant switcher; null: the membership's own). Spread at the end of CONTROL_MIGRATIONS.
export const OIDC2_CONTROL_MIGRATIONS: string[] = [
  `CREATE TABLE pending_signins (
     key_hash TEXT PRIMARY KEY, kind TEXT NOT NULL, nonce TEXT NOT NULL DEFAULT '', verifier TEXT NOT NULL DEFAULT '',
     user_id TEXT REFERENCES users(id) ON DELETE CASCADE, client TEXT NOT NULL DEFAULT '',
     created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
   CREATE INDEX pending_signins_expiry ON pending_signins(expires_at);
   CREATE INDEX pending_signins_client ON pending_signins(client);
   ALTER TABLE console_sessions ADD COLUMN tenant INTEGER;`,
];

// control.sqlite migrations of the DKIM key lifecycle (core/dkim-rotation.ts): several keys per
// (domain, algorithm), each with its selector and state. Spread at the end of CONTROL_MIGRATIONS in
// migrations.ts; append-only like it. SQLite cannot change a primary key in place, so the table is
// rebuilt; the keys made before carry over as `active` since their domain was added.
export const DKIM2_CONTROL_MIGRATIONS: string[] = [
  `CREATE TABLE dkim_keys_lifecycle (
     domain_id INTEGER NOT NULL REFERENCES domains(id) ON DELETE CASCADE, selector TEXT NOT NULL,
     algorithm TEXT NOT NULL, private_key TEXT NOT NULL, public_key TEXT NOT NULL,
     state TEXT NOT NULL DEFAULT 'active', created_at INTEGER NOT NULL DEFAULT 0, activated_at INTEGER, retire_at INTEGER,
     PRIMARY KEY (domain_id, selector));
   INSERT INTO dkim_keys_lifecycle (domain_id, selector, algorithm, private_key, public_key, state, created_at, activated_at)
     SELECT k.domain_id, k.selector, k.algorithm, k.private_key, k.public_key, 'active', d.created_at, d.created_at
     FROM dkim_keys k JOIN domains d ON d.id = k.domain_id;
   DROP TABLE dkim_keys;
   ALTER TABLE dkim_keys_lifecycle RENAME TO dkim_keys;`,
];

// Control-schema migrations of the DKIM key lifecycle (core/dkim-rotation.ts): several keys per
// (domain, algorithm), each with its selector and state. Spread at the end of CONTROL_MIGRATIONS in
// migrations.ts; append-only like it. The keys made before carry over as `active` since their
// domain was added.
export const DKIM2_CONTROL_MIGRATIONS: string[] = [
  `ALTER TABLE dkim_keys ADD COLUMN state TEXT NOT NULL DEFAULT 'active';
   ALTER TABLE dkim_keys ADD COLUMN created_at BIGINT NOT NULL DEFAULT 0;
   ALTER TABLE dkim_keys ADD COLUMN activated_at BIGINT;
   ALTER TABLE dkim_keys ADD COLUMN retire_at BIGINT;
   UPDATE dkim_keys k SET created_at = d.created_at, activated_at = d.created_at FROM domains d WHERE d.id = k.domain_id;
   ALTER TABLE dkim_keys DROP CONSTRAINT dkim_keys_pkey;
   ALTER TABLE dkim_keys ADD PRIMARY KEY (domain_id, selector);`,
];

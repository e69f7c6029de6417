// Control-schema migrations of the doctor (src/doctor): the blocklist watch's history. Spread at
// the end of CONTROL_MIGRATIONS in migrations.ts; append-only like it.
export const DOCTOR_CONTROL_MIGRATIONS: string[] = [
  `CREATE TABLE blocklist_entries (subject TEXT NOT NULL, zone TEXT NOT NULL, kind TEXT NOT NULL, state TEXT NOT NULL,
     answer TEXT NOT NULL DEFAULT '', cause TEXT NOT NULL DEFAULT '', first_seen BIGINT NOT NULL, last_seen BIGINT NOT NULL,
     last_known TEXT NOT NULL DEFAULT '', PRIMARY KEY (subject, zone));`,
];

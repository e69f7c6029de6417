// Tracking hosts (docs/tracking-hosts.md): a domain's own host ("" = email.<domain>) and what the
// last check found. Spread at the end of CONTROL_MIGRATIONS.
export const TRACKING_CONTROL_MIGRATIONS: string[] = [
  `ALTER TABLE domains ADD COLUMN tracking_host TEXT NOT NULL DEFAULT '';
   ALTER TABLE domains ADD COLUMN tracking_state TEXT NOT NULL DEFAULT 'pending';
   ALTER TABLE domains ADD COLUMN tracking_note TEXT NOT NULL DEFAULT '';
   ALTER TABLE domains ADD COLUMN tracking_changed_at INTEGER NOT NULL DEFAULT 0;`,
];

// Tracking hosts (docs/tracking-hosts.md): as the SQLite migration; the domains trigger already
// bumps the change mark, so other nodes see a new host or state at their next read.
export const TRACKING_CONTROL_MIGRATIONS: string[] = [
  `ALTER TABLE domains ADD COLUMN tracking_host TEXT NOT NULL DEFAULT '';
   ALTER TABLE domains ADD COLUMN tracking_state TEXT NOT NULL DEFAULT 'pending';
   ALTER TABLE domains ADD COLUMN tracking_note TEXT NOT NULL DEFAULT '';
   ALTER TABLE domains ADD COLUMN tracking_changed_at BIGINT NOT NULL DEFAULT 0;`,
];

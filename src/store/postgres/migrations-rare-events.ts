// The rare events by time (#41): see src/store/sqlite/migrations-rare-events.ts.
export const RARE_EVENTS_ZONE_MIGRATIONS: string[] = [
  `CREATE INDEX IF NOT EXISTS events_rare_ts ON events(ts) WHERE type IN ('failed', 'complained');`,
];

// The messages with a callback URL (#41): see src/store/sqlite/migrations-callbacks.ts.
export const CALLBACKS_ZONE_MIGRATIONS: string[] = [
  `CREATE INDEX IF NOT EXISTS messages_callback ON messages(id, callback_url) WHERE callback_url IS NOT NULL;`,
];

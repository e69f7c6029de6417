// The messages with a callback URL (#41): the webhook fan-out asks, for each batch of events no
// target wants, which of their messages carry one (callbacksOf). Answered from the messages rows,
// each look-up walked the row's overflow pages (the body sits before callback_url in a 512-byte
// page) for a million scheduled messages without a callback. This partial index holds only the
// messages that have one, and answers the question by itself.
export const CALLBACKS_ZONE_MIGRATIONS: string[] = [
  `CREATE INDEX IF NOT EXISTS messages_callback ON messages(id, callback_url) WHERE callback_url IS NOT NULL;`,
];

// The rare events by time (#41): the alerts read every sending domain's failures and complaints of
// the last hour each minute, a query with no domain, which walked the whole events table (a million
// scheduled are a million `accepted` rows). A partial index holds only those two types: the
// accept path and deliveries never write to it. Its predicate is spelled as a literal in the
// search (RARE_EVENT_TYPES), so the planner can prove a query may use it.
export const RARE_EVENTS_ZONE_MIGRATIONS: string[] = [
  `CREATE INDEX IF NOT EXISTS events_rare_ts ON events(ts) WHERE type IN ('failed', 'complained');`,
];

const RARE = ["failed", "complained"];
/** The index's predicate, as a literal term for a search whose types are all rare (both engines). */
export const rareTypesTerm = (types: readonly string[] | undefined): string | null =>
  types?.length && types.every((t) => RARE.includes(t)) ? `type IN ('failed', 'complained')` : null;

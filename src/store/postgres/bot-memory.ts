// Bot-detection memory in a zone schema, shared by every node of the zone: honeypot visitors with
// their expiry, and recent interactions per message (the pattern window). Every key is a hash made
// by the tracking side. A classification is one statement: the click stored (unless its message
// is flooded) and the visitor and the message's links read back, one round trip.
import type { BotInteraction, BotMemoryStore, BotRecall } from "../../core/store-port.ts";
import { exec, one, type Sql } from "./db.ts";

// The CTE's insert is not visible to the read in the same statement: the new link is counted in by hand.
const RECALL = `WITH added AS (
    INSERT INTO bot_interactions (message_key, at, link)
    SELECT $3, $2, $7 WHERE $7::text IS NOT NULL AND $3::text IS NOT NULL
      AND (SELECT COUNT(*) FROM bot_interactions WHERE message_key = $3 AND at >= $6) < $8),
  seen AS (SELECT link, at FROM bot_interactions WHERE message_key = $3 AND at >= $6
    UNION ALL SELECT $7, $2 WHERE $7::text IS NOT NULL AND $3::text IS NOT NULL)
  SELECT EXISTS (SELECT 1 FROM bot_honeypot WHERE visitor = $1 AND expires_at > $2) AS honeypot,
    COUNT(DISTINCT link) FILTER (WHERE at >= $4)::int AS second, COUNT(DISTINCT link) FILTER (WHERE at >= $5)::int AS burst,
    COUNT(DISTINCT link)::int AS win
  FROM seen`;

export function createBotMemory(sql: Sql): BotMemoryStore {
  /** Deletes the oldest rows of `table` beyond `keep` (by `column`); an index scan of `keep` rows. */
  const pruneOver = async (table: string, column: string, keep: number): Promise<number> => {
    const edge = await one(sql, `SELECT ${column} AS t FROM ${table} ORDER BY ${column} DESC LIMIT 1 OFFSET $1`, [keep]);
    return edge ? exec(sql, `DELETE FROM ${table} WHERE ${column} <= $1`, [edge.t as number]) : 0;
  };
  return {
    async rememberHoneypotHit(visitor, expiresAt) {
      await exec(sql, `INSERT INTO bot_honeypot (visitor, expires_at) VALUES ($1, $2)
        ON CONFLICT (visitor) DO UPDATE SET expires_at = GREATEST(bot_honeypot.expires_at, excluded.expires_at)`, [visitor, expiresAt]);
    },
    async recallInteraction(i: BotInteraction): Promise<BotRecall> {
      const r = (await one(sql, RECALL, [i.visitor, i.now, i.messageKey, i.since.second, i.since.burst, i.since.window, i.link, i.maxPerMessage]))!;
      return { honeypot: r.honeypot === true, linksInSecond: r.second as number, linksInBurst: r.burst as number, linksInWindow: r.win as number };
    },
    async pruneBotMemory(now, interactionsBefore, max) {
      return await exec(sql, "DELETE FROM bot_honeypot WHERE expires_at <= $1", [now])
        + await exec(sql, "DELETE FROM bot_interactions WHERE at < $1", [interactionsBefore])
        + await pruneOver("bot_honeypot", "expires_at", max.visitors) + await pruneOver("bot_interactions", "at", max.interactions);
    },
  };
}

// Bot-detection memory in a zone schema, shared by every node of the zone: honeypot visitors with
// their expiry, recent interactions per message (the pattern window), and across messages the
// opened messages and each visitor's clicks (the spread window). Every key is a hash made
// by the tracking side. A classification is one statement: the click stored (unless its message
// is flooded) and the visitor and the message's links read back, one round trip.
import type { BotInteraction, BotMemoryStore, BotRecall } from "../../core/store-port.ts";
import { exec, one, type Sql } from "./db.ts";

// The CTE's insert is not visible to the read in the same statement: the new link is counted in by hand.
const RECALL = `WITH added AS (
    INSERT INTO bot_interactions (message_key, at, link)
    SELECT $3, $2, $7 WHERE $7::text IS NOT NULL AND $3::text IS NOT NULL
      AND (SELECT COUNT(*) FROM bot_interactions WHERE message_key = $3 AND at >= $6) < $8),
  seen AS (SELECT link, at FROM bot_interactions WHERE (message_key = $3 OR (message_key = $9 AND link = $10)) AND at >= $6 AND at <= $2
    UNION ALL SELECT $7, $2 WHERE $7::text IS NOT NULL AND $3::text IS NOT NULL)
  SELECT EXISTS (SELECT 1 FROM bot_honeypot WHERE visitor = $1 AND expires_at > $2) AS honeypot,
    COUNT(DISTINCT link) FILTER (WHERE at >= $4)::int AS second, COUNT(DISTINCT link) FILTER (WHERE at >= $5)::int AS burst,
    COUNT(DISTINCT link)::int AS win
  FROM seen`;

// Across messages: the click stored under its visitor (unless flooded) and the visitor's spread
// read back, the new row counted in by hand as above.
const SPREAD = `WITH o AS (SELECT EXISTS (SELECT 1 FROM bot_opened WHERE message_key = $1 AND at >= $2) AS opened),
  added AS (INSERT INTO bot_spread (visitor, at, recipient, domain, unopened)
    SELECT $3, $4, $5, $6, NOT o.opened FROM o WHERE (SELECT COUNT(*) FROM bot_spread WHERE visitor = $3 AND at >= $7) < $8),
  seen AS (SELECT recipient, domain, unopened FROM bot_spread WHERE visitor = $3 AND at >= $7 AND at <= $4
    UNION ALL SELECT $5, $6, NOT o.opened FROM o)
  SELECT (SELECT opened FROM o) AS opened, COUNT(DISTINCT recipient)::int AS recipients, COUNT(DISTINCT domain)::int AS domains,
    COUNT(DISTINCT recipient) FILTER (WHERE unopened)::int AS unopened
  FROM seen`;

async function across(sql: Sql, i: BotInteraction) {
  const a = i.across;
  if (!a || i.messageKey === null) return { wasOpened: false, recipients: 0, domains: 0, unopened: 0 };
  if (i.link === null) {
    await exec(sql, `INSERT INTO bot_opened (message_key, at) VALUES ($1, $2)
      ON CONFLICT (message_key) DO UPDATE SET at = GREATEST(bot_opened.at, excluded.at)`, [i.messageKey, i.now]);
    return { wasOpened: true, recipients: 0, domains: 0, unopened: 0 };
  }
  const r = (await one(sql, SPREAD, [i.messageKey, a.openedSince, i.visitor, i.now, a.recipient, a.domain, a.since, a.maxPerVisitor]))!;
  return { wasOpened: r.opened === true, recipients: r.recipients as number, domains: r.domains as number, unopened: r.unopened as number };
}

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
      const r = (await one(sql, RECALL, [i.visitor, i.now, i.patternKey ?? i.messageKey, i.since.second, i.since.burst, i.since.window, i.link, i.maxPerMessage,
        i.honeypotRow?.patternKey ?? null, i.honeypotRow?.link ?? null]))!;
      return { honeypot: r.honeypot === true, linksInSecond: r.second as number, linksInBurst: r.burst as number, linksInWindow: r.win as number,
        ...await across(sql, i) };
    },
    async pruneBotMemory(now, interactionsBefore, max, older) {
      return await exec(sql, "DELETE FROM bot_honeypot WHERE expires_at <= $1", [now])
        + await exec(sql, "DELETE FROM bot_interactions WHERE at < $1", [interactionsBefore])
        + (older ? await exec(sql, "DELETE FROM bot_spread WHERE at < $1", [older.spread]) : 0)
        + (older ? await exec(sql, "DELETE FROM bot_opened WHERE at < $1", [older.opened]) : 0)
        + await pruneOver("bot_honeypot", "expires_at", max.visitors) + await pruneOver("bot_interactions", "at", max.interactions)
        + (max.spread !== undefined ? await pruneOver("bot_spread", "at", max.spread) : 0)
        + (max.opened !== undefined ? await pruneOver("bot_opened", "at", max.opened) : 0);
    },
  };
}

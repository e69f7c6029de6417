// Bot-detection memory in <zone>.sqlite: honeypot visitors with their expiry, and recent
// interactions per message (the pattern window). Every key is a hash made by the tracking side,
// so a row costs the same whatever a visitor sends. A peer process on the same files (another
// node) sees every hit at once.
import type { Database } from "bun:sqlite";
import type { BotInteraction, BotMemoryStore, BotRecall } from "../../core/store-port.ts";

type Row = Record<string, number | null>;

export function createBotMemory(db: Database): BotMemoryStore {
  const upsertVisitor = db.query(`INSERT INTO bot_honeypot (visitor, expires_at) VALUES (?, ?)
    ON CONFLICT (visitor) DO UPDATE SET expires_at = max(expires_at, excluded.expires_at)`);
  // A message already holding maxPerMessage interactions in the window stores no more.
  const addInteraction = db.query(`INSERT INTO bot_interactions (message_key, at, link)
    SELECT ?1, ?2, ?3 WHERE (SELECT COUNT(*) FROM bot_interactions WHERE message_key = ?1 AND at >= ?4) < ?5`);
  const recall = db.query(`SELECT EXISTS (SELECT 1 FROM bot_honeypot WHERE visitor = ?1 AND expires_at > ?2) AS honeypot,
      COUNT(DISTINCT CASE WHEN at >= ?4 THEN link END) AS second, COUNT(DISTINCT CASE WHEN at >= ?5 THEN link END) AS burst,
      COUNT(DISTINCT link) AS win
    FROM bot_interactions WHERE message_key = ?3 AND at >= ?6`);

  const pruneOver = (table: string, column: string, keep: number): number => {
    const edge = db.query(`SELECT ${column} AS t FROM ${table} ORDER BY ${column} DESC LIMIT 1 OFFSET ?`).get(keep) as Row | null;
    return edge ? db.query(`DELETE FROM ${table} WHERE ${column} <= ?`).run(edge.t as number).changes : 0;
  };

  return {
    async rememberHoneypotHit(visitor, expiresAt) {
      upsertVisitor.run(visitor, expiresAt);
    },
    async recallInteraction(i: BotInteraction): Promise<BotRecall> {
      return db.transaction(() => {
        if (i.messageKey !== null && i.link !== null) addInteraction.run(i.messageKey, i.now, i.link, i.since.window, i.maxPerMessage);
        const r = recall.get(i.visitor, i.now, i.messageKey ?? "", i.since.second, i.since.burst, i.since.window) as Row;
        return { honeypot: r.honeypot === 1, linksInSecond: r.second ?? 0, linksInBurst: r.burst ?? 0, linksInWindow: r.win ?? 0 };
      })();
    },
    async pruneBotMemory(now, interactionsBefore, max) {
      return db.transaction(() => db.query("DELETE FROM bot_honeypot WHERE expires_at <= ?").run(now).changes
        + db.query("DELETE FROM bot_interactions WHERE at < ?").run(interactionsBefore).changes
        + pruneOver("bot_honeypot", "expires_at", max.visitors) + pruneOver("bot_interactions", "at", max.interactions))();
    },
  };
}

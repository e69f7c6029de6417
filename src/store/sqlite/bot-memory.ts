// Bot-detection memory in <zone>.sqlite: honeypot visitors with their expiry, recent
// interactions per message (the pattern window), and across messages the opened messages and each
// visitor's clicks (the spread window). Every key is a hash made by the tracking side,
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
    FROM bot_interactions WHERE (message_key = ?3 OR (message_key = ?7 AND link = ?8)) AND at >= ?6 AND at <= ?2`);

  const markOpened = db.query(`INSERT INTO bot_opened (message_key, at) VALUES (?, ?)
    ON CONFLICT (message_key) DO UPDATE SET at = max(at, excluded.at)`);
  const isOpened = db.query("SELECT EXISTS (SELECT 1 FROM bot_opened WHERE message_key = ? AND at >= ?) AS opened");
  // A visitor already holding maxPerVisitor clicks in the spread window stores no more.
  const addSpread = db.query(`INSERT INTO bot_spread (visitor, at, recipient, domain, unopened)
    SELECT ?1, ?2, ?3, ?4, ?5 WHERE (SELECT COUNT(*) FROM bot_spread WHERE visitor = ?1 AND at >= ?6) < ?7`);
  const spread = db.query(`SELECT COUNT(DISTINCT recipient) AS recipients, COUNT(DISTINCT domain) AS domains,
      COUNT(DISTINCT CASE WHEN unopened = 1 THEN recipient END) AS unopened
    FROM bot_spread WHERE visitor = ? AND at >= ? AND at <= ?`);

  /** The across-messages part of a recall (inside its transaction). */
  const across = (i: BotInteraction) => {
    const a = i.across;
    if (!a || i.messageKey === null) return { wasOpened: false, recipients: 0, domains: 0, unopened: 0 };
    if (i.link === null) {
      markOpened.run(i.messageKey, i.now);
      return { wasOpened: true, recipients: 0, domains: 0, unopened: 0 };
    }
    const wasOpened = (isOpened.get(i.messageKey, a.openedSince) as Row).opened === 1;
    addSpread.run(i.visitor, i.now, a.recipient, a.domain, wasOpened ? 0 : 1, a.since, a.maxPerVisitor);
    const r = spread.get(i.visitor, a.since, i.now) as Row;
    return { wasOpened, recipients: r.recipients ?? 0, domains: r.domains ?? 0, unopened: r.unopened ?? 0 };
  };

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
        const pattern = i.patternKey ?? i.messageKey;
        if (pattern !== null && i.link !== null) addInteraction.run(pattern, i.now, i.link, i.since.window, i.maxPerMessage);
        const r = recall.get(i.visitor, i.now, pattern ?? "", i.since.second, i.since.burst, i.since.window,
          i.honeypotRow?.patternKey ?? null, i.honeypotRow?.link ?? null) as Row;
        return { honeypot: r.honeypot === 1, linksInSecond: r.second ?? 0, linksInBurst: r.burst ?? 0, linksInWindow: r.win ?? 0, ...across(i) };
      })();
    },
    async pruneBotMemory(now, interactionsBefore, max, older) {
      return db.transaction(() => db.query("DELETE FROM bot_honeypot WHERE expires_at <= ?").run(now).changes
        + db.query("DELETE FROM bot_interactions WHERE at < ?").run(interactionsBefore).changes
        + (older ? db.query("DELETE FROM bot_spread WHERE at < ?").run(older.spread).changes : 0)
        + (older ? db.query("DELETE FROM bot_opened WHERE at < ?").run(older.opened).changes : 0)
        + pruneOver("bot_honeypot", "expires_at", max.visitors) + pruneOver("bot_interactions", "at", max.interactions)
        + (max.spread !== undefined ? pruneOver("bot_spread", "at", max.spread) : 0)
        + (max.opened !== undefined ? pruneOver("bot_opened", "at", max.opened) : 0))();
    },
  };
}

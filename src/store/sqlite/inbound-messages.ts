// <zone>.sqlite: received messages (raw, envelope, authentication results) and, in the same
// transaction, the outbox rows of the posts they owe.
import type { Database } from "bun:sqlite";
import type { InboundMessageStore, StoredInbound } from "../../core/inbound/model.ts";
import { json } from "./db.ts";

type Row = Record<string, unknown>;

export const toInbound = (r: Row): StoredInbound => ({
  envelope: json(r.envelope, {}) as StoredInbound["envelope"], raw: new Uint8Array(r.raw as Uint8Array),
  storageKey: r.storage_key as string, expiresAt: r.expires_at as number,
});

export function createInboundMessageStore(db: Database): InboundMessageStore {
  const ins = db.query(`INSERT INTO inbound_messages (id, domain, storage_key, envelope, raw, size, received_at, expires_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  const post = db.query(`INSERT INTO outbox (id, url, format, target_id, domain, payload, attempts, next_attempt_at, status, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, 0, ?, 'pending', ?, ?)`);
  const byId = db.query("SELECT * FROM inbound_messages WHERE id = ?");
  const byKey = db.query("SELECT * FROM inbound_messages WHERE storage_key = ?");
  return {
    async storeInbound(m, posts, now) {
      const e = m.envelope;
      db.transaction(() => {
        ins.run(e.id, e.domain, m.storageKey, JSON.stringify(e), m.raw, m.raw.length, e.receivedAt, m.expiresAt);
        for (const p of posts) {
          // The payload is a batch of one, as every outbox row's: what the format needs to build the post.
          const item = { inboundId: e.id, recipient: p.recipient, ruleId: p.ruleId, url: p.url, options: p.options };
          post.run(p.id, p.url, p.format, null, e.domain, JSON.stringify([item]), now, now, now);
        }
      }).immediate();
    },
    async getInbound(id) { const r = byId.get(id) as Row | null; return r ? toInbound(r) : null; },
    async getInboundByKey(key) { const r = byKey.get(key) as Row | null; return r ? toInbound(r) : null; },
    async purgeInbound(now) { return db.query("DELETE FROM inbound_messages WHERE expires_at <= ?").run(now).changes; },
  };
}

// <zone>.sqlite: received messages (envelope, authentication results, trace headers) and, in the
// same transaction, the outbox rows of the posts they owe. Bodies arrive first, streamed in pieces
// (inbound_bodies) while the SMTP client sends; the message row then names them. Rows from before
// streaming keep the whole message in raw and no body_id.
import type { Database } from "bun:sqlite";
import { ORPHAN_BODY_MS, type InboundMessageStore, type StoredInbound } from "../../core/inbound/model.ts";
import { json } from "./db.ts";

type Row = Record<string, unknown>;

export function createInboundMessageStore(db: Database): InboundMessageStore {
  const ins = db.query(`INSERT INTO inbound_messages (id, domain, storage_key, envelope, raw, size, received_at, expires_at, body_id)
    VALUES (?1, ?2, ?3, ?4, ?5, (SELECT ?6 + COALESCE(SUM(length(data)), 0) FROM inbound_bodies WHERE body_id = ?9), ?7, ?8, ?9)`);
  const post = db.query(`INSERT INTO outbox (id, url, format, target_id, domain, payload, attempts, next_attempt_at, status, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, 0, ?, 'pending', ?, ?)`);
  const append = db.query("INSERT INTO inbound_bodies (body_id, seq, data, created_at) VALUES (?, ?, ?, ?)");
  const pieces = db.query("SELECT data FROM inbound_bodies WHERE body_id = ? ORDER BY seq");
  const byId = db.query("SELECT * FROM inbound_messages WHERE id = ?");
  const byKey = db.query("SELECT * FROM inbound_messages WHERE storage_key = ?");

  function toInbound(r: Row): StoredInbound {
    const head = new Uint8Array(r.raw as Uint8Array);
    const parts = r.body_id ? (pieces.all(r.body_id as string) as { data: Uint8Array }[]).map((p) => p.data) : [];
    return { envelope: json(r.envelope, {}) as StoredInbound["envelope"], raw: parts.length ? new Uint8Array(Buffer.concat([head, ...parts])) : head,
      storageKey: r.storage_key as string, expiresAt: r.expires_at as number };
  }

  return {
    async appendInboundBody(bodyId, seq, data, now) { append.run(bodyId, seq, data, now); },
    async discardInboundBody(bodyId) { db.query("DELETE FROM inbound_bodies WHERE body_id = ?").run(bodyId); },
    async storeInbound(m, posts, now) {
      const e = m.envelope;
      db.transaction(() => {
        ins.run(e.id, e.domain, m.storageKey, JSON.stringify(e), m.trace, m.trace.length, e.receivedAt, m.expiresAt, m.bodyId);
        for (const p of posts) {
          // The payload is a batch of one, as every outbox row's: what the format needs to build the post.
          const item = { inboundId: e.id, recipient: p.recipient, ruleId: p.ruleId, url: p.url, options: p.options };
          post.run(p.id, p.url, p.format, null, e.domain, JSON.stringify([item]), now, now, now);
        }
      }).immediate();
    },
    async getInbound(id) { const r = byId.get(id) as Row | null; return r ? toInbound(r) : null; },
    async getInboundByKey(key) { const r = byKey.get(key) as Row | null; return r ? toInbound(r) : null; },
    async purgeInbound(now) {
      return db.transaction(() => {
        const n = db.query("DELETE FROM inbound_messages WHERE expires_at <= ?").run(now).changes;
        // Bodies no message names: those of expired messages, and pieces of a connection lost or
        // refused mid-message once they are old enough not to belong to one still being received.
        db.query(`DELETE FROM inbound_bodies WHERE created_at < ? AND body_id NOT IN
          (SELECT body_id FROM inbound_messages WHERE body_id IS NOT NULL)`).run(now - ORPHAN_BODY_MS);
        return n;
      }).immediate();
    },
  };
}

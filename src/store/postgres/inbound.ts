// Received mail in a zone schema: bodies streamed in pieces (inbound_bodies) by the node the SMTP
// client is talking to, then the message row naming them and its posts in one transaction. Any
// node of the zone reads the message back whole (posts, Mailgun's stored-message URL).
import { ORPHAN_BODY_MS, type InboundMessageStore, type StoredInbound } from "../../core/inbound/model.ts";
import { exec, one, rows, type Row, type Sql } from "./db.ts";
import { inboundPosts, insertItems } from "./outbox.ts";

export function createInboundStore(sql: Sql): InboundMessageStore {
  async function toInbound(r: Row): Promise<StoredInbound> {
    const head = new Uint8Array(r.raw as Uint8Array);
    const parts = r.body_id ? (await rows(sql, "SELECT data FROM inbound_bodies WHERE body_id = $1 ORDER BY seq", [r.body_id as string]))
      .map((p) => p.data as Uint8Array) : [];
    return { envelope: JSON.parse(r.envelope as string) as StoredInbound["envelope"], storageKey: r.storage_key as string,
      expiresAt: r.expires_at as number, raw: parts.length ? new Uint8Array(Buffer.concat([head, ...parts])) : head };
  }
  return {
    async appendInboundBody(bodyId, seq, data, now) {
      await exec(sql, "INSERT INTO inbound_bodies (body_id, seq, data, created_at) VALUES ($1, $2, $3, $4)", [bodyId, seq, data, now]);
    },
    async discardInboundBody(bodyId) { await exec(sql, "DELETE FROM inbound_bodies WHERE body_id = $1", [bodyId]); },
    async storeInbound(m, posts, now) {
      const e = m.envelope;
      await sql.begin(async (tx) => {
        await exec(tx, `INSERT INTO inbound_messages (id, domain, storage_key, envelope, raw, size, received_at, expires_at, body_id)
          VALUES ($1, $2, $3, $4, $5, $6 + (SELECT COALESCE(SUM(length(data)), 0)::int FROM inbound_bodies WHERE body_id = $9), $7, $8, $9)`,
          [e.id, e.domain, m.storageKey, JSON.stringify(e), m.trace, m.trace.length, e.receivedAt, m.expiresAt, m.bodyId]);
        await insertItems(tx, inboundPosts(m, posts, now));
      });
    },
    async getInbound(id) {
      const r = await one(sql, "SELECT * FROM inbound_messages WHERE id = $1", [id]);
      return r ? toInbound(r) : null;
    },
    async getInboundByKey(key) {
      const r = await one(sql, "SELECT * FROM inbound_messages WHERE storage_key = $1", [key]);
      return r ? toInbound(r) : null;
    },
    async purgeInbound(now) {
      return sql.begin(async (tx) => {
        const n = await exec(tx, "DELETE FROM inbound_messages WHERE expires_at <= $1", [now]);
        // Bodies no message names: those of expired messages, and pieces left by a node that died
        // mid-message once they are too old to belong to one still being received.
        await exec(tx, `DELETE FROM inbound_bodies b WHERE created_at < $1
          AND NOT EXISTS (SELECT 1 FROM inbound_messages m WHERE m.body_id = b.body_id)`, [now - ORPHAN_BODY_MS]);
        return n;
      });
    },
  };
}

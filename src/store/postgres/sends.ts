// Send records in a zone schema: messages, their recipients (the queue) and attachments, written
// in one transaction per send with one statement per table, and the reads over whole sends.
import type { NewSend, SendRecordStore, StoredAttachment, StoredMessage, StoredSend } from "../../core/store-port.ts";
import { decodeExtra, encodeExtra, toStoredMessage } from "../sqlite/messages.ts";
import { toRecipient } from "../sqlite/queue.ts";
import { exec, one, rows, type Sql } from "./db.ts";

/** Writes a send's messages, recipients and attachments inside `tx` (events are the caller's). */
export async function insertSendRows(tx: Sql, { messages, recipients, attachments }: NewSend): Promise<void> {
  const m = <T>(f: (x: StoredMessage) => T) => messages.map(f);
  if (messages.length) {
    await exec(tx, `INSERT INTO messages (id, send_id, domain, message_id_header, mail_from, subject, content, tags, metadata,
        callback_url, source, is_test, size, created_at, extra)
      SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
        $10::text[], $11::text[], $12::boolean[], $13::int[], $14::bigint[], $15::text[])`,
      [m((x) => x.id), m((x) => x.sendId), m((x) => x.domain), m((x) => x.messageIdHeader), m((x) => x.from), m((x) => x.subject),
        m((x) => x.content), m((x) => JSON.stringify(x.tags)), m((x) => JSON.stringify(x.metadata)), m((x) => x.callbackUrl),
        m((x) => x.source), m((x) => x.isTest), m((x) => x.size), m((x) => x.createdAt), m((x) => encodeExtra(x.extra))]);
    // Raw MIME is rare and large: one statement each, bound as bytea.
    for (const x of messages) if (x.raw) await exec(tx, "UPDATE messages SET raw = $1 WHERE id = $2", [x.raw, x.id]);
  }
  if (recipients.length) {
    const r = <T>(f: (x: (typeof recipients)[number]) => T) => recipients.map(f);
    await exec(tx, `INSERT INTO recipients (id, message_id, email, rcpt_domain, kind, status, attempts, next_attempt_at, expires_at, updated_at)
      SELECT u.id, u.message_id, u.email, u.rcpt_domain, u.kind, u.status, 0, u.next, u.expires, u.updated
      FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::bigint[], $9::bigint[])
        WITH ORDINALITY AS u(id, message_id, email, rcpt_domain, kind, status, next, expires, updated, ord) ORDER BY u.ord`,
      [r((x) => x.id), r((x) => x.messageId), r((x) => x.email), r((x) => x.rcptDomain), r((x) => x.kind), r((x) => x.status),
        r((x) => x.nextAttemptAt), r((x) => x.expiresAt), r((x) => x.updatedAt)]);
  }
  for (const a of attachments) {
    await exec(tx, `INSERT INTO attachments (send_id, idx, filename, content_type, content_id, disposition, data) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [a.sendId, a.idx, a.filename, a.contentType, a.contentId, a.disposition, a.data]);
  }
}

type Reads = Omit<SendRecordStore, "createSend">;

export function createSendReads(sql: Sql): Reads {
  return {
    async getMessage(id) {
      const r = await one(sql, "SELECT * FROM messages WHERE id = $1", [id]);
      return r ? toStoredMessage(r) : null;
    },
    async getAttachments(sendId) {
      return (await rows(sql, "SELECT * FROM attachments WHERE send_id = $1 ORDER BY idx", [sendId])).map((r): StoredAttachment => ({
        sendId, idx: r.idx as number, filename: r.filename as string, contentType: r.content_type as string,
        contentId: (r.content_id as string | null) ?? null, disposition: r.disposition as StoredAttachment["disposition"],
        data: new Uint8Array(r.data as Uint8Array) }));
    },
    async getRecipient(id) {
      const r = await one(sql, "SELECT * FROM recipients WHERE id = $1", [id]);
      return r ? toRecipient(r) : null;
    },
    async listRecipients(messageId) {
      return (await rows(sql, "SELECT * FROM recipients WHERE message_id = $1 ORDER BY seq", [messageId])).map(toRecipient);
    },
    async listMessagesBySend(sendId) {
      return (await rows(sql, "SELECT * FROM messages WHERE send_id = $1 ORDER BY seq", [sendId])).map(toStoredMessage);
    },
    async listSends(domain, q) {
      const where: string[] = [];
      const args: unknown[] = [];
      const add = (clause: (n: string) => string, value: unknown) => { args.push(value); where.push(clause(`$${args.length}`)); };
      if (domain) add((n) => `domain = ${n}`, domain.toLowerCase());
      if (q.campaignId !== undefined) add((n) => `extra::jsonb ->> 'campaign_id' = ${n}`, q.campaignId);
      if (q.templateId !== undefined) add((n) => `extra::jsonb ->> 'template_id' = ${n}`, q.templateId);
      // Starts from the queue's partial index: scheduled recipients are few, messages are many.
      if (q.scheduledAfter !== undefined) {
        add((n) => `id IN (SELECT message_id FROM recipients WHERE status IN ('queued', 'deferred') AND attempts = 0 AND next_attempt_at > ${n})`, q.scheduledAfter);
      }
      args.push(q.limit);
      // A send's domain and extra are its first message's.
      const list = await rows(sql, `SELECT send_id, (array_agg(domain ORDER BY seq))[1] AS domain, (array_agg(extra ORDER BY seq))[1] AS extra,
          MIN(created_at) AS created_at, COUNT(*)::int AS n FROM messages ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
        GROUP BY send_id ORDER BY created_at DESC, send_id COLLATE "C" DESC LIMIT $${args.length}`, args as never[]);
      return list.map((r): StoredSend => ({ id: r.send_id as string, domain: r.domain as string, createdAt: r.created_at as number,
        extra: decodeExtra(r.extra), messages: r.n as number }));
    },
    async countSends(domain, since) {
      return (await one(sql, "SELECT COUNT(*)::int AS n FROM messages WHERE domain = $1 AND created_at >= $2", [domain, since]))!.n as number;
    },
  };
}

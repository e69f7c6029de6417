// Send records in a zone schema: messages, their recipients (the queue) and attachments, written
// as one multi-row write per table inside the one statement that commits a burst of sends
// (send-commit.ts), and the reads over whole sends.
import type { NewSend, SendRecordStore, StoredAttachment, StoredMessage, StoredSend } from "../../core/store-port.ts";
import { decodeExtra, encodeExtra, MESSAGE_HEAD_COLUMNS, toStoredMessage } from "../sqlite/messages.ts";
import { toRecipient } from "../sqlite/queue.ts";
import { one, rows, type Sql } from "./db.ts";
import type { Writes } from "./writes.ts";

/** Adds the writing of sends' messages, recipients and attachments to `w` (events are the caller's). */
export function addSendRows(w: Writes, { messages, recipients, attachments }: NewSend): void {
  if (messages.length) {
    const m = <T>(f: (x: StoredMessage) => T) => w.bind(messages.map(f));
    w.add(`INSERT INTO messages (id, send_id, domain, message_id_header, mail_from, subject, content, raw, tags, metadata,
        callback_url, source, is_test, size, created_at, extra)
      SELECT u.id, u.send_id, u.domain, u.mid, u.mail_from, u.subject, u.content, u.raw, u.tags, u.metadata, u.callback_url, u.source,
        u.is_test, u.size, u.created_at, u.extra
      FROM unnest(${m((x) => x.id)}::text[], ${m((x) => x.sendId)}::text[], ${m((x) => x.domain)}::text[], ${m((x) => x.messageIdHeader)}::text[],
        ${m((x) => x.from)}::text[], ${m((x) => x.subject)}::text[], ${m((x) => x.content)}::text[], ${m((x) => x.raw)}::bytea[],
        ${m((x) => JSON.stringify(x.tags))}::text[], ${m((x) => JSON.stringify(x.metadata))}::text[], ${m((x) => x.callbackUrl)}::text[],
        ${m((x) => x.source)}::text[], ${m((x) => x.isTest)}::boolean[], ${m((x) => x.size)}::int[], ${m((x) => x.createdAt)}::bigint[],
        ${m((x) => encodeExtra(x.extra))}::text[])
        WITH ORDINALITY AS u(id, send_id, domain, mid, mail_from, subject, content, raw, tags, metadata, callback_url, source, is_test, size,
          created_at, extra, ord)
      ORDER BY u.ord`);
  }
  if (recipients.length) {
    const r = <T>(f: (x: (typeof recipients)[number]) => T) => w.bind(recipients.map(f));
    w.add(`INSERT INTO recipients (id, message_id, email, rcpt_domain, kind, status, attempts, next_attempt_at, expires_at, updated_at)
      SELECT u.id, u.message_id, u.email, u.rcpt_domain, u.kind, u.status, 0, u.next, u.expires, u.updated
      FROM unnest(${r((x) => x.id)}::text[], ${r((x) => x.messageId)}::text[], ${r((x) => x.email)}::text[], ${r((x) => x.rcptDomain)}::text[],
        ${r((x) => x.kind)}::text[], ${r((x) => x.status)}::text[], ${r((x) => x.nextAttemptAt)}::bigint[], ${r((x) => x.expiresAt)}::bigint[],
        ${r((x) => x.updatedAt)}::bigint[])
        WITH ORDINALITY AS u(id, message_id, email, rcpt_domain, kind, status, next, expires, updated, ord) ORDER BY u.ord`);
  }
  if (attachments.length) {
    const a = <T>(f: (x: StoredAttachment) => T) => w.bind(attachments.map(f));
    w.add(`INSERT INTO attachments (send_id, idx, filename, content_type, content_id, disposition, data)
      SELECT * FROM unnest(${a((x) => x.sendId)}::text[], ${a((x) => x.idx)}::int[], ${a((x) => x.filename)}::text[], ${a((x) => x.contentType)}::text[],
        ${a((x) => x.contentId)}::text[], ${a((x) => x.disposition)}::text[], ${a((x) => x.data)}::bytea[])`);
  }
}

type Reads = Omit<SendRecordStore, "createSend">;

export function createSendReads(sql: Sql): Reads {
  return {
    async getMessage(id) {
      const r = await one(sql, "SELECT * FROM messages WHERE id = $1", [id]);
      return r ? toStoredMessage(r) : null;
    },
    async getMessageHead(id) {
      const r = await one(sql, `SELECT ${MESSAGE_HEAD_COLUMNS} FROM messages WHERE id = $1`, [id]);
      return r ? toStoredMessage(r) : null;
    },
    async getMessageHeads(ids) {
      if (!ids.length) return [];
      return (await rows(sql, `SELECT ${MESSAGE_HEAD_COLUMNS} FROM messages WHERE id = ANY($1::text[])`, [ids])).map(toStoredMessage);
    },
    async callbacksOf(ids) {
      if (!ids.length) return [];
      return (await rows(sql, "SELECT id, callback_url FROM messages WHERE id = ANY($1::text[]) AND callback_url IS NOT NULL", [ids]))
        .map((r) => ({ id: r.id as string, callbackUrl: r.callback_url as string }));
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

// Send records in <zone>.sqlite: the `extra` column of messages (a send's campaign, batch, pool...)
// and the reads over whole sends. Kept beside zone.ts, which owns the message rows themselves.
import type { Database } from "bun:sqlite";
import type { MessageExtra, SendRecordStore, StoredMessage, StoredSend } from "../../core/store-port.ts";
import { bool, json } from "./db.ts";
import { unpackContent, unpackRaw } from "./body-codec.ts";

type Row = Record<string, unknown>;

/** MessageExtra ⇄ the column's JSON, in snake_case like the wire names it comes from. */
const EXTRA_COLUMNS: [keyof MessageExtra, string][] = [["campaignId", "campaign_id"], ["batchId", "batch_id"], ["asmGroupId", "asm_group_id"],
  ["ipPool", "ip_pool"], ["description", "description"], ["templateId", "template_id"],
  ["sendingIp", "sending_ip"]];

export function encodeExtra(extra: MessageExtra | undefined): string {
  const out: Record<string, unknown> = {};
  for (const [key, column] of EXTRA_COLUMNS) if (extra?.[key] !== undefined) out[column] = extra[key];
  return JSON.stringify(out);
}

export function decodeExtra(text: unknown): MessageExtra {
  const stored = json<Record<string, unknown>>(text, {});
  const out: Record<string, unknown> = {};
  for (const [key, column] of EXTRA_COLUMNS) if (stored[column] !== undefined && stored[column] !== null) out[key] = stored[column];
  return out as MessageExtra;
}

/** A messages row as a StoredMessage, `extra` included. */
export const toStoredMessage = (r: Row): StoredMessage => ({
  id: r.id as string, sendId: r.send_id as string, domain: r.domain as string, messageIdHeader: r.message_id_header as string,
  from: r.mail_from as string, subject: r.subject as string, content: unpackContent(r.content),
  raw: r.raw ? unpackRaw(r.raw) : null, tags: json(r.tags, []), metadata: json(r.metadata, {}),
  callbackUrl: (r.callback_url as string | null) ?? null, source: r.source as string, isTest: bool(r.is_test),
  size: r.size as number, createdAt: r.created_at as number, extra: decodeExtra(r.extra),
});

/** Every column but the body (content, raw): fan-out reads one per event and needs no body. */
export const MESSAGE_HEAD_COLUMNS = "id, send_id, domain, message_id_header, mail_from, subject, NULL AS content, NULL AS raw, tags, metadata, " +
  "callback_url, source, is_test, size, created_at, extra";

export function createSendRecords(db: Database): Pick<SendRecordStore, "listMessagesBySend" | "listSends"> {
  const bySend = db.query("SELECT * FROM messages WHERE send_id = ? ORDER BY rowid");
  return {
    async listMessagesBySend(sendId) {
      return (bySend.all(sendId) as Row[]).map(toStoredMessage);
    },
    async listSends(domain, q) {
      const where: string[] = [];
      const args: (string | number)[] = [];
      if (domain) { where.push("domain = ?"); args.push(domain.toLowerCase()); }
      if (q.campaignId !== undefined) { where.push("json_extract(extra, '$.campaign_id') = ?"); args.push(q.campaignId); }
      if (q.templateId !== undefined) { where.push("json_extract(extra, '$.template_id') = ?"); args.push(q.templateId); }
      if (q.scheduledAfter !== undefined) {
        // Starts from the queue's partial index, key by key (CROSS JOIN: the domains first): scheduled
        // recipients are few, messages are many.
        where.push(`id IN (SELECT r.message_id FROM pending_domains d CROSS JOIN recipients r INDEXED BY recipients_key_due ON r.rcpt_domain = d.domain
          WHERE r.status IN ('queued', 'deferred') AND r.attempts = 0 AND r.next_attempt_at > ?)`);
        args.push(q.scheduledAfter);
      }
      args.push(q.limit);
      // `extra` and `domain` are bare columns: SQLite takes them from the MIN(rowid) row, the send's first message.
      const rows = db.query(`SELECT send_id, domain, extra, MIN(rowid), MIN(created_at) AS created_at, COUNT(*) AS n FROM messages
        ${where.length ? `WHERE ${where.join(" AND ")}` : ""} GROUP BY send_id ORDER BY created_at DESC, send_id DESC LIMIT ?`).all(...args) as Row[];
      return rows.map((r): StoredSend => ({ id: r.send_id as string, domain: r.domain as string, createdAt: r.created_at as number,
        extra: decodeExtra(r.extra), messages: r.n as number }));
    },
  };
}

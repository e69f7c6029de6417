// <zone>.sqlite: messages, attachments, recipients (which are also the queue), events and
// suppressions of the domains that live in this zone. Queue statements are in queue.ts.
import type { Database } from "bun:sqlite";
import { createInboundMessageStore } from "./inbound-messages.ts";
import type { MessageEvent } from "../../core/model.ts";
import type { ClaimsHeld, StoredAttachment, StoredMessage, StoredRecipient, Suppression, ZoneStore } from "../../core/store-port.ts";
import { bool, json } from "./db.ts";
import { createQueueStatements, toRecipient } from "./queue.ts";
import { createDestinationQueue } from "./destinations.ts";
import { createEventStatements } from "./events.ts";
import { createOutboxStatements } from "./outbox.ts";
import type { GroupCommit } from "./group-commit.ts";
import type { OutcomeJournal } from "./outcome-journal.ts";
import { createBotMemory } from "./bot-memory.ts";
import { createReceiverReports } from "./receiver-reports.ts";
import { createSendRecords, encodeExtra, MESSAGE_HEAD_COLUMNS, toStoredMessage } from "./messages.ts";
import { createSuppressionListing } from "./suppression-list.ts";
import { packContent, packRaw } from "./body-codec.ts";
import { createRetentionStatements } from "./retention.ts";

/** The messages among a JSON array of ids that carry a callback URL: the partial index alone answers it (migrations-callbacks.ts). */
export const CALLBACKS_OF = "SELECT id, callback_url AS callbackUrl FROM messages WHERE id IN (SELECT value FROM json_each(?)) AND callback_url IS NOT NULL";

type Row = Record<string, unknown>;
type SendRows = Parameters<ZoneStore["createSend"]>[0];
type ApplyArgs = Parameters<ZoneStore["applyOutcomes"]>;
/** Applies journaled outcomes left by a server that did not stop cleanly, in one transaction. */
export interface ReplayOutcomes { replayOutcomes(entries: OutcomeEntry[]): void }
/** One applyOutcomes call, as the outcome journal keeps it. */
export interface OutcomeEntry { updates: ApplyArgs[0]; events: ApplyArgs[1]; suppressions: ApplyArgs[2]; now: ApplyArgs[3] }


const toSuppression = (r: Row): Suppression => ({
  domain: r.domain as string, type: r.type as Suppression["type"], address: r.address as string, reason: r.reason as string,
  code: r.code as string, scope: (r.scope as string | null) ?? null, createdAt: r.created_at as number,
});

/**
 * `commits`: the file's shared transactions (group-commit.ts), used by accepts, claims and outcomes.
 * `journal()`: the outcome journal while a server holds the directory (outcome-journal.ts).
 */
export function createZoneStore(zone: string, db: Database, commits: GroupCommit, journal: () => OutcomeJournal | null = () => null): ZoneStore & ReplayOutcomes {
  const insMessage = db.query(`INSERT INTO messages (id, send_id, domain, message_id_header, mail_from, subject, content, raw,
    tags, metadata, callback_url, source, is_test, size, created_at, extra) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insRecipient = db.query(`INSERT INTO recipients (id, message_id, email, rcpt_domain, kind, status, attempts,
    next_attempt_at, first_attempt_at, expires_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?, NULL, ?, ?)`);
  const insAttachment = db.query(`INSERT INTO attachments (send_id, idx, filename, content_type, content_id, disposition, data)
    VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const insSuppression = db.query(`INSERT INTO suppressions (domain, type, address, reason, code, scope, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (domain, type, address) DO UPDATE SET reason = excluded.reason,
    code = excluded.code, scope = excluded.scope, created_at = excluded.created_at`);
  const suppressedOne = db.query("SELECT * FROM suppressions WHERE domain = ? AND address = ?");
  const queue = createQueueStatements(db);
  const events = createEventStatements(db);
  const outbox = createOutboxStatements(db);

  const writeSuppressions = (list: Suppression[]) => {
    for (const s of list) insSuppression.run(s.domain, s.type, s.address.toLowerCase(), s.reason, s.code, s.scope, s.createdAt);
  };

  const applyOutcomes = (o: OutcomeEntry) => {
    queue.applyUpdates(o.updates, o.now);
    events.insertMany(o.events);
    writeSuppressions(o.suppressions);
  };

  const writeSend = ({ messages, recipients, attachments, events: evs, suppressions }: SendRows) => {
    for (const m of messages) insMessage.run(m.id, m.sendId, m.domain, m.messageIdHeader, m.from, m.subject, packContent(m.content), packRaw(m.raw),
      JSON.stringify(m.tags), JSON.stringify(m.metadata), m.callbackUrl, m.source, m.isTest ? 1 : 0, m.size, m.createdAt, encodeExtra(m.extra));
    for (const r of recipients) insRecipient.run(r.id, r.messageId, r.email, r.rcptDomain, r.kind, r.status, r.nextAttemptAt, r.expiresAt, r.updatedAt);
    for (const a of attachments) insAttachment.run(a.sendId, a.idx, a.filename, a.contentType, a.contentId, a.disposition, a.data);
    events.insertMany(evs);
    if (suppressions) writeSuppressions(suppressions);
  };

  return {
    ...createInboundMessageStore(db),
    replayOutcomes: (entries: OutcomeEntry[]) => db.transaction(() => entries.forEach(applyOutcomes)).immediate(),
    ...createDestinationQueue(db, commits),
    zone,
    createSend: (input) => commits.run(() => writeSend(input), { caller: true }),
    async getMessage(id) {
      const r = db.query("SELECT * FROM messages WHERE id = ?").get(id) as Row | null;
      return r ? toStoredMessage(r) : null;
    },
    async getMessageHead(id) {
      const r = db.query(`SELECT ${MESSAGE_HEAD_COLUMNS} FROM messages WHERE id = ?`).get(id) as Row | null;
      return r ? toStoredMessage(r) : null;
    },
    async getMessageHeads(ids) {
      if (!ids.length) return [];
      return (db.query(`SELECT ${MESSAGE_HEAD_COLUMNS} FROM messages WHERE id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids)) as Row[]).map(toStoredMessage);
    },
    async callbacksOf(ids) {
      if (!ids.length) return [];
      return db.query(CALLBACKS_OF).all(JSON.stringify(ids)) as { id: string; callbackUrl: string }[];
    },
    async getAttachments(sendId) {
      const rows = db.query("SELECT * FROM attachments WHERE send_id = ? ORDER BY idx").all(sendId) as Row[];
      return rows.map((r): StoredAttachment => ({ sendId, idx: r.idx as number, filename: r.filename as string,
        contentType: r.content_type as string, contentId: (r.content_id as string | null) ?? null,
        disposition: r.disposition as StoredAttachment["disposition"], data: new Uint8Array(r.data as Uint8Array) }));
    },
    async getRecipient(id) {
      const r = db.query("SELECT * FROM recipients WHERE id = ?").get(id) as Row | null;
      return r ? toRecipient(r) : null;
    },
    async listRecipients(messageId) {
      return (db.query("SELECT * FROM recipients WHERE message_id = ? ORDER BY rowid").all(messageId) as Row[]).map(toRecipient);
    },
    claimDue: async (now, limit, lease, fair) => queue.claimDue(now, limit, lease, fair),
    applyOutcomes(updates, evs, suppressions, now) {
      const written = journal()?.append({ updates, events: evs, suppressions, now });
      const pending = commits.run(() => applyOutcomes({ updates, events: evs, suppressions, now }));
      return written ? pending.then(() => written(true), (e) => { written(false); throw e; }) : pending;
    },
    queueStats: async (now) => queue.stats(now),
    listQueue: async (limit) => queue.list(limit),
    retryNow: async (id, now) => queue.retryNow(id, now),
    async purgeQueue(now, items) {
      return db.transaction(() => items.filter((item) => {
        if (!queue.purgeOne(item.recipientId, now, item.lastResponse)) return false;
        events.insertMany(item.events);
        writeSuppressions(item.suppressions);
        return true;
      }).map((item) => item.recipientId)).immediate();
    },
    nextDueAt: async () => queue.nextDueAt(),
    renewClaims: async (ids, now, lease) => queue.renew(ids, now, lease),
    releaseClaims: async (now, owner, ids) => queue.releaseClaims(now, owner, ids),
    claimsHeld: async (now) => mergeHeld(queue.held(now), outbox.held(now)),
    searchEvents: async (q) => events.search(q),
    countEvents: async (q) => events.count(q),
    listTags: async (domain) => events.tags(domain),
    putTagInfo: async (domain, tag, change) => events.putTagInfo(domain, tag, change),
    async addSuppressions(list) {
      db.transaction(() => writeSuppressions(list))();
    },
    async getSuppression(domain, type, address) {
      const r = db.query("SELECT * FROM suppressions WHERE domain = ? AND type = ? AND address = ?").get(domain, type, address.toLowerCase()) as Row | null;
      return r ? toSuppression(r) : null;
    },
    async findSuppressed(domain, addresses) {
      if (addresses.length === 0) return [];
      // One query for the whole list (a batch can name a thousand recipients).
      const lower = [...new Set(addresses.map((a) => a.toLowerCase()))];
      // Most sends name one recipient: a plain lookup, without the JSON list.
      const rows = (lower.length === 1 ? suppressedOne.all(domain, lower[0]!)
        : db.query("SELECT * FROM suppressions WHERE domain = ? AND address IN (SELECT value FROM json_each(?))").all(domain, JSON.stringify(lower))) as Row[];
      return rows.map(toSuppression);
    },
    async isListedAnywhere(address, type) {
      return db.query("SELECT 1 FROM suppressions WHERE address = ? AND type = ? LIMIT 1").get(address.toLowerCase(), type) !== null;
    },
    async deleteSuppression(domain, type, address) {
      const sql = type ? "DELETE FROM suppressions WHERE domain = ? AND address = ? AND type = ?" : "DELETE FROM suppressions WHERE domain = ? AND address = ?";
      const args = type ? [domain, address.toLowerCase(), type] : [domain, address.toLowerCase()];
      return db.query(sql).run(...args).changes;
    },
    async deleteAllSuppressions(domain, type) {
      return db.query("DELETE FROM suppressions WHERE domain = ? AND type = ?").run(domain, type).changes;
    },
    cursor: async (name) => outbox.cursor(name),
    eventsAfter: async (rowid, limit) => outbox.eventsAfter(rowid, limit),
    enqueueWebhooks: async (items, cursor) => outbox.enqueue(items, cursor),
    enqueueOutbox: async (items) => outbox.enqueueItems(items),
    claimWebhooks: async (now, limit, lease, opts) => outbox.claim(now, limit, lease, opts?.perUrl, opts?.skipUrls),
    releaseWebhookClaims: async (now, owner) => outbox.releaseClaims(now, owner),
    renewWebhookClaims: async (ids, now, lease) => outbox.renew(ids, now, lease),
    webhooksDueNow: async (url, now) => outbox.dueNow(url, now),
    claimWebhookProbe: async (url, now, lease) => outbox.claimProbe(url, now, lease),
    expireWebhooks: async (now, createdBefore, formats) => outbox.expire(now, createdBefore, formats),
    finishWebhook: async (id, status, attempts, next, error, now) => outbox.finish(id, status, attempts, next, error, now),
    webhookStats: async () => outbox.stats(),
    webhookPostsFor: async (domain, messageId, limit) => outbox.postsFor(domain, messageId, limit),
    nextWebhookDueAt: async () => outbox.nextDueAt(),
    putBotResult: async (r, olderThan) => outbox.putBotResult(r, olderThan),
    getBotResult: async (domain, id) => outbox.getBotResult(domain, id),
    ...createBotMemory(db),
    ...createReceiverReports(db),
    async countSends(domain, since) {
      const r = db.query("SELECT COUNT(*) AS n FROM messages WHERE domain = ? AND created_at >= ?").get(domain, since) as Row;
      return r.n as number;
    },
    ...createSendRecords(db),
    ...createSuppressionListing(db),
    ...createRetentionStatements(db),
  };
}

/** Recipient and outbox claim counts merged per owner. */
function mergeHeld(recipients: { owner: string; count: number }[], webhooks: { owner: string; count: number }[]): ClaimsHeld[] {
  const by = new Map<string, ClaimsHeld>();
  const of = (owner: string) => by.get(owner) ?? by.set(owner, { owner, recipients: 0, webhooks: 0 }).get(owner)!;
  for (const r of recipients) of(r.owner ?? "").recipients += r.count;
  for (const w of webhooks) of(w.owner ?? "").webhooks += w.count;
  return [...by.values()];
}

export type { StoredRecipient };

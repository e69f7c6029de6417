// One zone's data in its own schema of postgres_url: messages, recipients (the queue), events,
// suppressions, the webhook outbox, bot results and received mail. Every node serving the zone
// opens the same schema; claims carry the claiming node's id (ClaimLease).
import type { ClaimsHeld, ZoneStore } from "../../core/store-port.ts";
import { createBotMemory } from "./bot-memory.ts";
import { createReceiverReports } from "./receiver-reports.ts";
import { createInboundStore } from "./inbound.ts";
import type { Sql } from "./db.ts";
import { addEvents, createEventStatements, insertEvents } from "./events.ts";
import { createOutboxStatements } from "./outbox.ts";
import { addOutcomeCommitMode, addRecipientUpdates, createQueueStatements } from "./queue.ts";
import { createSendReads } from "./sends.ts";
import { createDestinationQueue } from "./destinations.ts";
import { createSendCommit } from "./send-commit.ts";
import { addSuppressionWrites, createSuppressionStore, writeSuppressions } from "./suppressions.ts";
import { Writes } from "./writes.ts";
import { createRetentionStatements } from "./retention.ts";

/** `outcomes`: the pool delivery outcomes are written on (asynchronous commit, index.ts); default `sql`. */
export function createZoneStore(zone: string, sql: Sql, outcomes: Sql = sql): ZoneStore {
  const queue = createQueueStatements(sql);
  const events = createEventStatements(sql);
  const outbox = createOutboxStatements(sql);
  const sends = createSendCommit(sql);
  return {
    zone,
    ...createSendReads(sql),
    ...createSuppressionStore(sql),
    ...createDestinationQueue(sql),
    createSend: (input) => sends.add(input),
    claimDue: (now, limit, lease, fair) => queue.claimDue(now, limit, lease, fair),
    renewClaims: (ids, now, lease) => queue.renew(ids, now, lease),
    async applyOutcomes(updates, evs, suppressions, now) {
      await outcomeWrites(updates, evs, suppressions, now).run(outcomes);
    },
    queueStats: (now) => queue.stats(now),
    listQueue: (limit) => queue.list(limit),
    retryNow: (id, now) => queue.retryNow(id, now),
    async purgeQueue(now, items) {
      return sql.begin(async (tx) => {
        const purged = new Set(await queue.purge(tx, now, items.map((i) => ({ id: i.recipientId, lastResponse: i.lastResponse }))));
        const done = items.filter((i) => purged.has(i.recipientId));
        await writeSuppressions(tx, done.flatMap((i) => i.suppressions));
        await insertEvents(tx, done.flatMap((i) => i.events));
        return done.map((i) => i.recipientId);
      });
    },
    nextDueAt: () => queue.nextDueAt(),
    releaseClaims: (now, owner, ids) => queue.releaseClaims(now, owner, ids),
    claimsHeld: async (now) => mergeHeld(await queue.held(now), await outbox.held(now)),
    searchEvents: (q) => events.search(q),
    countEvents: (q) => events.count(q),
    listTags: (domain) => events.tags(domain),
    putTagInfo: (domain, tag, change) => events.putTagInfo(domain, tag, change),
    cursor: (name) => events.cursor(name),
    eventsAfter: (position, limit) => events.eventsAfter(position, limit),
    enqueueWebhooks: (items, cursor) => outbox.enqueue(items, cursor),
    enqueueOutbox: (items) => outbox.enqueueItems(items),
    claimWebhooks: (now, limit, lease, opts) => outbox.claim(now, limit, lease, opts?.perUrl, opts?.skipUrls),
    claimWebhookProbe: (url, now, lease) => outbox.claimProbe(url, now, lease),
    renewWebhookClaims: (ids, now, lease) => outbox.renew(ids, now, lease),
    webhooksDueNow: (url, now) => outbox.dueNow(url, now),
    releaseWebhookClaims: (now, owner) => outbox.releaseClaims(now, owner),
    expireWebhooks: (now, createdBefore, formats) => outbox.expire(now, createdBefore, formats),
    finishWebhook: (id, status, attempts, next, error, now) => outbox.finish(id, status, attempts, next, error, now),
    webhookStats: () => outbox.stats(),
    webhookPostsFor: (domain, messageId, limit) => outbox.postsFor(domain, messageId, limit),
    nextWebhookDueAt: () => outbox.nextDueAt(),
    putBotResult: (r, olderThan) => outbox.putBotResult(r, olderThan),
    getBotResult: (domain, id) => outbox.getBotResult(domain, id),
    ...createBotMemory(sql),
    ...createReceiverReports(sql),
    ...createInboundStore(sql),
    ...createRetentionStatements(sql),
  };
}

/**
 * Outcomes as one statement, one round trip (writes.ts), run on connections of their own
 * (index.ts); delivery attempts commit without waiting for the disk (queue.ts): the window between
 * a destination's 250 and the commit is what a kill -9 delivers twice.
 */
type ApplyOutcomes = ZoneStore["applyOutcomes"];
export function outcomeWrites(...[updates, evs, suppressions, now]: Parameters<ApplyOutcomes>): Writes {
  const w = new Writes();
  addOutcomeCommitMode(w, updates);
  addRecipientUpdates(w, updates, now);
  addSuppressionWrites(w, suppressions);
  addEvents(w, evs);
  return w;
}

/** Recipient and outbox claim counts merged per owner. */
function mergeHeld(recipients: { owner: string; count: number }[], webhooks: { owner: string; count: number }[]): ClaimsHeld[] {
  const by = new Map<string, ClaimsHeld>();
  const of = (owner: string) => by.get(owner) ?? by.set(owner, { owner, recipients: 0, webhooks: 0 }).get(owner)!;
  for (const r of recipients) of(r.owner).recipients += r.count;
  for (const w of webhooks) of(w.owner).webhooks += w.count;
  return [...by.values()];
}

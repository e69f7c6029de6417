// The storage port: what the domain needs from an engine, split by use case. Every method is
// async (a network engine such as PostgreSQL answers later), takes and returns the nouns of
// records.ts, and is exercised by test/store/contract.ts for every engine. Engines live under
// src/store/; only app.ts picks one.
import type { TrackingHostStore } from "./tracking-host-port.ts";
import type { RetentionStore } from "./retention-port.ts";
import type { Account, DkimKey, Domain, DomainSettings, DomainState, MessageEvent } from "./model.ts";
import type {
  ConsoleSession, Credential, EventQuery, NewDomain, OutboxItem, RecipientUpdate, SendQuery, StoredAttachment, StoredKey, StoredMessage,
  StoredRecipient, StoredSend, Suppression, TagInfo, WebhookTarget, UnsubscribeGroup, SendBatch,
} from "./records.ts";
import type { InboundMessageStore, InboundRuleStore } from "./inbound/model.ts";
import type { ReceiverReportStore } from "./receiver-report.ts";
import type { BotMemoryStore } from "./bot-memory-port.ts";
import type { TemplateRepo } from "./template-model.ts";
import type { ListRepo } from "./list-model.ts";
import type { DestinationQueueStore } from "./destination-store.ts";
import type { EgressCounterStore } from "./egress/counter-port.ts";
import type { AlertStore } from "./alerts-port.ts";
import type { SignInStore, TeamStore } from "./team/store-port.ts";
import type { AuditStore } from "./audit-port.ts";
import type { BlocklistStore } from "./blocklist-port.ts";
import type { DkimKeyStore } from "./dkim-key-port.ts";
import type { TlsReportStore } from "./tls-report-port.ts";
import type { TenantStore } from "./tenants.ts";
import type { TenantSendCounter } from "./tenant-quota-port.ts";

export type * from "./records.ts";
export type * from "./receiver-report.ts";
export type * from "./bot-memory-port.ts";

/** Unsubscribe groups and scheduled-send batches: account data of each tenant, shared by every zone. */
export interface SendControlStore {
  /** Stores a new group; the engine assigns its id (ascending integers, never reused). */
  insertGroup(g: Omit<UnsubscribeGroup, "id">): Promise<UnsubscribeGroup>;
  getGroup(id: number): Promise<UnsubscribeGroup | null>;
  /** Every group, or (given) only the tenant's, by id. */
  listGroups(tenant?: number): Promise<UnsubscribeGroup[]>;
  updateGroup(id: number, patch: Partial<Pick<UnsubscribeGroup, "name" | "description" | "isDefault">>): Promise<UnsubscribeGroup | null>;
  deleteGroup(id: number): Promise<boolean>;
  insertBatch(b: SendBatch): Promise<void>;
  getBatch(id: string): Promise<SendBatch | null>;
  /** Every batch, or (given) only the tenant's, oldest first. */
  listBatches(tenant?: number): Promise<SendBatch[]>;
  /** Sets or (null) releases a batch's hold; false when the batch does not exist. */
  setBatchHold(id: string, hold: SendBatch["hold"], now: number): Promise<boolean>;
}

/** Account, keys, domains, credentials and webhook targets: the data every zone shares. */
export interface ControlStore extends InboundRuleStore, SendControlStore, EgressCounterStore, AlertStore,
  TrackingHostStore, TeamStore, SignInStore, AuditStore, BlocklistStore, DkimKeyStore, TlsReportStore, TenantStore,
  TenantSendCounter {
  getAccount(): Promise<Account | null>;
  createAccount(a: Account & { secret: string }): Promise<void>;
  /** The server-wide HMAC secret for VERP and tracking tokens. */
  getSecret(): Promise<string>;
  /** The SendGrid-format event webhook signing pair, PEM private and base64 DER public. */
  getEventWebhookKeys(): Promise<{ privateKeyPem: string; publicKey: string } | null>;
  setEventWebhookKeys(keys: { privateKeyPem: string; publicKey: string }): Promise<void>;
  /** The domain's webhook HMAC key, set to `fresh` on first use; null when the domain does not exist. */
  domainWebhookKey(domainId: number, fresh: string): Promise<string | null>;
  insertDomain(d: NewDomain, now: number): Promise<Domain>;
  getDomain(name: string): Promise<Domain | null>;
  getDomainById(id: number): Promise<Domain | null>;
  /** Changes whenever another connection commits a change to domains, webhook targets or tenants (cheap: asked per cached read). */
  changeMark(): Promise<number>;
  /** Every domain, or (given) only the tenant's: the one place tenant scoping of domains happens. */
  listDomains(tenant?: number): Promise<Domain[]>;
  updateDomain(name: string, patch: Partial<DomainSettings> & { state?: DomainState; wildcard?: boolean }, now: number): Promise<Domain | null>;
  deleteDomain(name: string): Promise<boolean>;
  /** Every key of the domain, in every state (core/dkim-rotation.ts says which signs), oldest first. */
  getDkimKeys(domainId: number): Promise<DkimKey[]>;
  insertKey(k: StoredKey): Promise<void>;
  getKey(id: string): Promise<StoredKey | null>;
  /** Live keys, or (given) only the tenant's. */
  listKeys(tenant?: number): Promise<StoredKey[]>;
  revokeKey(id: string, now: number): Promise<boolean>;
  /** Changes a live key's label and/or grants; false when it does not exist or is revoked. */
  updateKey(id: string, patch: { label?: string; grants?: string[] }): Promise<boolean>;
  touchKeys(used: Map<string, number>): Promise<void>;
  upsertCredential(c: Credential): Promise<void>;
  getCredential(domainId: number, login: string): Promise<Credential | null>;
  listCredentials(domainId: number): Promise<Credential[]>;
  deleteCredential(domainId: number, login: string): Promise<boolean>;
  insertWebhook(w: WebhookTarget): Promise<void>;
  updateWebhook(w: WebhookTarget): Promise<void>;
  /** A domain's targets and its tenant's account-wide ones (null: every target); `tenant`: only that tenant's. */
  listWebhooks(domainId: number | null, tenant?: number): Promise<WebhookTarget[]>;
  deleteWebhook(id: string): Promise<boolean>;
  insertSession(s: ConsoleSession): Promise<void>;
  getSession(tokenHash: string): Promise<ConsoleSession | null>;
  /** Deletes one session, or with `expiredBy` every session that expired by then, or every session of a user; returns how many went. */
  deleteSessions(q: { tokenHash?: string; expiredBy?: number; userId?: string }): Promise<number>;
}

/** One waiting recipient to fail and what its failure records (the recorder builds these outside the transaction). */
export interface PurgeItem { recipientId: string; lastResponse: string; events: MessageEvent[]; suppressions: Suppression[] }

/** One accepted send as the recorder hands it over: its rows and what they imply, in one transaction. */
export interface NewSend {
  messages: StoredMessage[];
  recipients: StoredRecipient[];
  attachments: StoredAttachment[];
  events: MessageEvent[];
  suppressions?: Suppression[];
}

/** Messages, their recipients and attachments, and reads over whole sends (SparkPost transmissions). */
export interface SendRecordStore {
  /** Commits a whole send: messages, recipients (the queue), attachments and their events, in one transaction. */
  createSend(input: NewSend): Promise<void>;
  getMessage(id: string): Promise<StoredMessage | null>;
  /** The message without its body (`content` and `raw` are null): what webhook fan-out reads per event. */
  getMessageHead(id: string): Promise<StoredMessage | null>;
  /** The heads of the messages among `ids` that exist, in one read (the fan-out's batch of events). */
  getMessageHeads(ids: string[]): Promise<StoredMessage[]>;
  /** The messages among `ids` that carry a callback URL, with it: all the fan-out needs of an event no target wants. */
  callbacksOf(ids: string[]): Promise<{ id: string; callbackUrl: string }[]>;
  getAttachments(sendId: string): Promise<StoredAttachment[]>;
  getRecipient(id: string): Promise<StoredRecipient | null>;
  listRecipients(messageId: string): Promise<StoredRecipient[]>;
  /** Every message of one send, in creation order. */
  listMessagesBySend(sendId: string): Promise<StoredMessage[]>;
  /** Sends newest first, of one domain (or every domain of the zone). */
  listSends(domain: string | undefined, q: SendQuery): Promise<StoredSend[]>;
  /** Messages of `domain` created at or after `since` (sending limits). */
  countSends(domain: string, since: number): Promise<number>;
}

export interface ClaimFairness { perDomain: number; skipDomains: string[] }

/**
 * Who claims and for how long: the claiming node's id (`[server] node_id`) and its lease. A claim
 * records its owner and the lease's end; the owner renews its leases while it works, another node
 * takes the rows over once a lease ends (their owner died), and a restart of the same node takes
 * its own claims back at once.
 */
export interface ClaimLease { owner: string; leaseMs: number }

/** Live claims (lease not ended) per owning node. */
export interface ClaimsHeld { owner: string; recipients: number; webhooks: number }

export interface QueueStats { queued: number; deferred: number; due: number; delivered: number; failed: number; byDomain: { domain: string; count: number }[] }

/** The outbound queue: recipients that are queued or deferred, claimed with a lease. */
export interface QueueStore {
  /**
   * Claims due recipients for `lease.owner` until `now + lease.leaseMs`: rows claimed by another
   * node are due again (and claimable) once their lease ends. With `fair`, at most `perDomain` rows
   * of one recipient domain and none of the `skipDomains` (those at their limit already), so one
   * busy or slow destination cannot take every slot.
   */
  claimDue(now: number, limit: number, lease: ClaimLease, fair?: ClaimFairness): Promise<StoredRecipient[]>;
  /** Extends the leases `lease.owner` still holds on `ids`; returns the ids renewed (a lost one was taken over). */
  renewClaims(ids: string[], now: number, lease: ClaimLease): Promise<string[]>;
  /** Applies delivery outcomes, their events and the suppressions they imply in one transaction. */
  applyOutcomes(updates: RecipientUpdate[], events: MessageEvent[], suppressions: Suppression[], now: number): Promise<void>;
  queueStats(now: number): Promise<QueueStats>;
  listQueue(limit: number): Promise<StoredRecipient[]>;
  retryNow(idOrMessageId: string, now: number): Promise<number>;
  /**
   * Fails each named recipient that is still waiting and not being attempted right now, writing
   * the events and suppressions its item carries, in one transaction; an item whose recipient was
   * claimed or finished meanwhile writes nothing. Returns the ids purged.
   */
  purgeQueue(now: number, items: PurgeItem[]): Promise<string[]>;
  nextDueAt(): Promise<number | null>;
  /**
   * Makes the unfinished recipients `owner` claimed due now: run once by a starting node (its own claims, at once),
   * and, with `ids`, for claimed rows a node will not attempt after all (its destination has no room left).
   */
  releaseClaims(now: number, owner: string, ids?: string[]): Promise<number>;
  /** Live claims of recipients and webhook posts, per owning node. */
  claimsHeld(now: number): Promise<ClaimsHeld[]>;
}

/** The events of a zone: searched and counted for reports, read in commit order by the fan-out. */
export interface EventLog {
  searchEvents(q: EventQuery): Promise<MessageEvent[]>;
  /** Counts per type and hour bucket; with `tag`, only events carrying it. */
  countEvents(q: { domain?: string; begin: number; end: number; tag?: string }): Promise<{ type: string; bucket: number; count: number }[]>;
  /** The tags `domain`'s events carry (since the tag was last deleted), with description and first/last event time. */
  listTags(domain: string): Promise<TagInfo[]>;
  /** Sets a tag's description, or (deleted) hides its events so far. */
  putTagInfo(domain: string, tag: string, change: { description?: string; deletedAt?: number }): Promise<void>;
  /** Position of a named cursor in the event log (0 when never set). */
  cursor(name: string): Promise<number>;
  /** Events after `position`, in commit order, each with its position (a sequence, never a reused rowid). */
  eventsAfter(position: number, limit: number): Promise<{ position: number; event: MessageEvent }[]>;
}

/** Which outbox items an expiry applies to: only these formats, or all but these (formats with their own lifetime). */
export interface FormatScope { only?: string[]; except?: string[] }

/** The webhook outbox: items written durably before any POST, claimed with a lease and finished. */
export interface OutboxStore {
  /**
   * Writes outbox items and moves cursor `name` from `from` to `to` in one transaction, only when it
   * is still at `from`: false (nothing written) when another node's fan-out moved it first.
   */
  enqueueWebhooks(items: OutboxItem[], cursor: { name: string; from: number; to: number }): Promise<boolean>;
  /** Writes outbox items that come from no event (bot verdict pushes). */
  enqueueOutbox(items: OutboxItem[]): Promise<void>;
  /** Claims due items for `lease.owner`: at most `perUrl` per URL, none of `skipUrls` (targets busy or backed off). */
  claimWebhooks(now: number, limit: number, lease: ClaimLease, opts?: { perUrl?: number; skipUrls?: string[] }): Promise<OutboxItem[]>;
  /** Claims the earliest unclaimed pending item of `url` whether due or not (a probe of a failed target); null when none. */
  claimWebhookProbe(url: string, now: number, lease: ClaimLease): Promise<OutboxItem | null>;
  /** Extends the leases `lease.owner` still holds on outbox items `ids`; returns the ids renewed. */
  renewWebhookClaims(ids: string[], now: number, lease: ClaimLease): Promise<string[]>;
  /** Makes the unclaimed pending items of `url` due now (its target answers again); returns how many. */
  webhooksDueNow(url: string, now: number): Promise<number>;
  /** Makes the unfinished outbox items `owner` claimed due now: run once by a starting node. */
  releaseWebhookClaims(now: number, owner: string): Promise<number>;
  /** Gives up unclaimed pending items created before `createdBefore`; returns them counted per URL. */
  expireWebhooks(now: number, createdBefore: number, formats?: FormatScope): Promise<{ url: string; count: number; lastError: string | null }[]>;
  finishWebhook(id: string, status: OutboxItem["status"], attempts: number, nextAttemptAt: number, error: string | null, now: number): Promise<void>;
  webhookStats(): Promise<{ status: string; count: number }[]>;
  /** The webhook posts (outbox items) carrying events of one message, oldest first. */
  webhookPostsFor(domain: string, messageId: string, limit: number): Promise<OutboxItem[]>;
  nextWebhookDueAt(): Promise<number | null>;
}

/** The suppression lists of a zone's domains. */
export interface SuppressionStore {
  addSuppressions(s: Suppression[]): Promise<void>;
  getSuppression(domain: string, type: string, address: string): Promise<Suppression | null>;
  findSuppressed(domain: string, addresses: string[]): Promise<Suppression[]>;
  /** True when any domain of this zone has `address` on its `type` list. */
  isListedAnywhere(address: string, type: string): Promise<boolean>;
  /** In address order after `after` / before `before`; `descending` lists from the end (nearest `before` first). */
  listSuppressions(q: { domain: string; type?: string; after?: string; before?: string; descending?: boolean; limit: number; address?: string }): Promise<Suppression[]>;
  deleteSuppression(domain: string, type: string | null, address: string): Promise<number>;
  deleteAllSuppressions(domain: string, type: string): Promise<number>;
}

/** Bot-detection results the native bot API hands back later. */
export interface BotResultStore {
  /** Stores a result by domain and request id; entries older than `olderThan` are dropped first. */
  putBotResult(r: { domain: string; requestId: string; body: string; createdAt: number }, olderThan: number): Promise<void>;
  getBotResult(domain: string, requestId: string): Promise<{ body: string; createdAt: number } | null>;
}

/** Everything one zone keeps. */
export interface ZoneStore extends SendRecordStore, QueueStore, DestinationQueueStore, EventLog, OutboxStore, SuppressionStore, BotResultStore, BotMemoryStore,
  InboundMessageStore, ReceiverReportStore, RetentionStore {
  readonly zone: string;
}

/** The one-process lease of a node id: held while this process serves, so no second process of the same node takes back its claims. */
export interface ServeLease { release(): Promise<void> }

import type { NodeRegistry } from "./node-registry-port.ts";
export type { NodeRecord, NodeRegistry } from "./node-registry-port.ts";

/** TLS state shared by the nodes (src/tls): ACME account key, certificate, key, HTTP-01 answers by name. */
export interface TlsStateStore {
  getTlsItem(name: string): Promise<string | null>;
  putTlsItem(name: string, value: string, now: number): Promise<void>;
  deleteTlsItem(name: string): Promise<void>;
  /** Runs `fn` holding the installation's one TLS lock (one node orders at a time); waits for it. */
  withTlsLock<T>(fn: () => Promise<T>): Promise<T>;
}

export interface Store {
  control: ControlStore;
  tls: TlsStateStore; // used on PostgreSQL; with SQLite src/tls keeps files in data_dir/tls
  /** Stored templates and lists (control data: shared by every zone). */
  templates: TemplateRepo;
  lists: ListRepo;
  /** The serving nodes (control data: every node of every zone). */
  nodes: NodeRegistry;
  zone(name: string): ZoneStore;
  zoneNames(): string[];
  /**
   * Takes the serving lease of node `nodeId`; rejects with AppError "conflict" while another live
   * process holds it. An engine may be stricter: SQLite allows one server per data directory.
   */
  takeLease(nodeId: string): Promise<ServeLease>;
  /** Migrations applied to the control data and to each local zone (`status` shows them). */
  schemaVersion(): Promise<SchemaVersion>;
  /**
   * A consistent copy of every database file into `dir` (new or empty) while the server may run,
   * holding every commit made before the call; rejects with AppError "invalid" naming the engine's
   * own tool where the engine has one (PostgreSQL: pg_dump).
   */
  backup(dir: string): Promise<BackupFile[]>;
  close(): Promise<void>;
}

export interface SchemaVersion { control: number; zones: Record<string, number> }
/** One file of a backup: its name inside the backup directory and its size. */
export interface BackupFile { name: string; bytes: number }

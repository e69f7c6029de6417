// The only storage API. Methods are async (a PostgreSQL store will not be synchronous), sized to a
// use case, and return domain types. SQL lives only under store/sqlite/.
import type { TemplateRepo } from "../core/template-model.ts";
import type { ListRepo } from "../core/list-model.ts";
import type { Account, ApiKey, DkimKey, Domain, DomainSettings, DomainState, KeyKind, MessageEvent, SuppressionType } from "../core/model.ts";
import type { InboundMessageStore, InboundRuleStore } from "../core/inbound/model.ts";

export interface NewDomain extends DomainSettings {
  name: string;
  zone: string;
  wildcard: boolean;
  dkimSelector: string;
  keys: Omit<DkimKey, "domainId">[];
}

export interface StoredKey extends ApiKey { hash: string; revokedAt: number | null }

export interface Credential { domainId: number; login: string; hash: string; createdAt: number }

export interface WebhookTarget {
  id: string;
  domainId: number | null;
  /** Event types this target receives (native names; empty = all). */
  events: string[];
  url: string;
  /** A format name of webhooks/registry.ts ("mailgun", "sendgrid"...). */
  format: string;
  /** Vendor-specific extras (SparkPost name, auth_type, custom headers...). */
  extra: Record<string, unknown>;
  createdAt: number;
}

/** A web console session: `tokenHash` is the SHA-256 of the cookie's token. */
export interface ConsoleSession { tokenHash: string; keyId: string; csrf: string; createdAt: number; expiresAt: number }

export interface ControlStore extends InboundRuleStore {
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
  listDomains(): Promise<Domain[]>;
  updateDomain(name: string, patch: Partial<DomainSettings> & { state?: DomainState; wildcard?: boolean }, now: number): Promise<Domain | null>;
  deleteDomain(name: string): Promise<boolean>;
  getDkimKeys(domainId: number): Promise<DkimKey[]>;
  insertKey(k: StoredKey): Promise<void>;
  getKey(id: string): Promise<StoredKey | null>;
  listKeys(): Promise<StoredKey[]>;
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
  listWebhooks(domainId: number | null): Promise<WebhookTarget[]>;
  deleteWebhook(id: string): Promise<boolean>;
  insertSession(s: ConsoleSession): Promise<void>;
  getSession(tokenHash: string): Promise<ConsoleSession | null>;
  /** Deletes one session, or with `expiredBy` every session that expired by then; returns how many went. */
  deleteSessions(q: { tokenHash?: string; expiredBy?: number }): Promise<number>;
}

/** One message as stored: the envelope's content, composed into MIME at delivery time. */
export interface StoredMessage {
  id: string;
  sendId: string;
  domain: string;
  messageIdHeader: string;
  from: string;
  subject: string;
  /** JSON of the composed-at-delivery content (see core/compose.ts), or null when `raw` is set. */
  content: string | null;
  raw: Uint8Array | null;
  tags: string[];
  metadata: Record<string, string>;
  callbackUrl: string | null;
  source: string;
  isTest: boolean;
  size: number;
  createdAt: number;
  /** The send's request-level facts; every message of one send carries the same. Absent = none. */
  extra?: MessageExtra;
}

/** Request-level facts a send keeps for reporting (SparkPost transmissions, SendGrid batch_id...). */
export interface MessageExtra {
  campaignId?: string;
  batchId?: string;
  asmGroupId?: number;
  ipPool?: string;
  description?: string;
  templateId?: string;
}

/** One send (a transmission): the request that made `messages` messages. */
export interface StoredSend {
  id: string;
  domain: string;
  createdAt: number;
  extra: MessageExtra;
  messages: number;
}

export interface SendQuery {
  campaignId?: string;
  templateId?: string;
  /** Only sends with a recipient still waiting for its first attempt after this time (scheduled). */
  scheduledAfter?: number;
  limit: number;
}

/** Reads over whole sends (SparkPost transmissions); implemented beside the zone store. */
export interface SendRecordStore {
  /** Every message of one send, in creation order. */
  listMessagesBySend(sendId: string): Promise<StoredMessage[]>;
  /** Sends newest first, of one domain (or every domain of the zone). */
  listSends(domain: string | undefined, q: SendQuery): Promise<StoredSend[]>;
}

export type RecipientStatus = "queued" | "deferred" | "delivered" | "failed" | "suppressed" | "test";

export interface StoredRecipient {
  id: string;
  messageId: string;
  email: string;
  rcptDomain: string;
  kind: "to" | "cc" | "bcc";
  status: RecipientStatus;
  attempts: number;
  nextAttemptAt: number;
  firstAttemptAt: number | null;
  expiresAt: number;
  lastCode: number | null;
  lastResponse: string | null;
  mx: string | null;
  updatedAt: number;
}

export interface StoredAttachment {
  sendId: string;
  idx: number;
  filename: string;
  contentType: string;
  contentId: string | null;
  disposition: "attachment" | "inline";
  data: Uint8Array;
}

export interface Suppression {
  domain: string;
  type: SuppressionType;
  address: string;
  reason: string;
  code: string;
  /** SparkPost: transactional / non_transactional; null = both. */
  scope: string | null;
  createdAt: number;
}

/** The outcome the scheduler applies to one claimed recipient. */
export interface RecipientUpdate {
  id: string;
  status: RecipientStatus;
  attempts: number;
  nextAttemptAt: number;
  firstAttemptAt: number | null;
  lastCode: number | null;
  lastResponse: string | null;
  mx: string | null;
}

export interface TagInfo { tag: string; description: string; firstSeen: number; lastSeen: number }

export interface EventQuery {
  domain?: string;
  messageId?: string;
  recipient?: string;
  /** Events whose message carries this tag. */
  tag?: string;
  types?: string[];
  begin?: number;
  end?: number;
  /** Page after this event id (ascending) or before it (descending). */
  cursor?: string;
  ascending?: boolean;
  limit: number;
}

/** One POST to a webhook target: the unsigned payload (an event or a batch), retried until acknowledged. */
export interface OutboxItem {
  id: string;
  url: string;
  format: WebhookTarget["format"];
  /** The domain webhook target, or null for a message's callback_url. */
  targetId: string | null;
  domain: string;
  /** JSON: an array of events in the stored MessageEvent shape plus context, formatted at send time. */
  payload: string;
  attempts: number;
  nextAttemptAt: number;
  status: "pending" | "delivered" | "rejected" | "expired";
  lastError: string | null;
  createdAt: number;
}

export interface ClaimFairness { perDomain: number; skipDomains: string[] }

export interface ZoneStore extends SendRecordStore, InboundMessageStore {
  readonly zone: string;
  /** Commits a whole send: messages, recipients (the queue), attachments and their events, in one transaction. */
  createSend(input: { messages: StoredMessage[]; recipients: StoredRecipient[]; attachments: StoredAttachment[]; events: MessageEvent[]; suppressions?: Suppression[] }): Promise<void>;
  getMessage(id: string): Promise<StoredMessage | null>;
  getAttachments(sendId: string): Promise<StoredAttachment[]>;
  getRecipient(id: string): Promise<StoredRecipient | null>;
  listRecipients(messageId: string): Promise<StoredRecipient[]>;
  /**
   * Claims due recipients for `leaseMs`: a crash leaves them due again once the lease ends. With
   * `fair`, at most `perDomain` rows of one recipient domain and none of the `skipDomains` (those
   * at their limit already), so one busy or slow destination cannot take every slot.
   */
  claimDue(now: number, limit: number, leaseMs: number, fair?: ClaimFairness): Promise<StoredRecipient[]>;
  /** Applies delivery outcomes and their events in one transaction. */
  applyOutcomes(updates: RecipientUpdate[], events: MessageEvent[], suppressions: Suppression[], now: number): Promise<void>;
  queueStats(now: number): Promise<{ queued: number; deferred: number; due: number; delivered: number; failed: number; byDomain: { domain: string; count: number }[] }>;
  listQueue(limit: number): Promise<StoredRecipient[]>;
  retryNow(idOrMessageId: string, now: number): Promise<number>;
  /**
   * Fails every waiting recipient not being attempted right now and records the events and
   * suppressions `recordFor` makes of them, in one transaction; returns how many were purged.
   * With `ids`, only those recipients (the console purges one destination).
   */
  purgeQueue(now: number, recordFor: (rows: StoredRecipient[], messages: Map<string, StoredMessage>) => { events: MessageEvent[]; suppressions: Suppression[] }, ids?: string[]): Promise<number>;
  nextDueAt(): Promise<number | null>;
  /** Makes every claimed, unfinished recipient due now: run once by a starting server (one server per data dir). */
  releaseClaims(now: number): Promise<number>;
  searchEvents(q: EventQuery): Promise<MessageEvent[]>;
  /** Counts per type and hour bucket; with `tag`, only events carrying it. */
  countEvents(q: { domain?: string; begin: number; end: number; tag?: string }): Promise<{ type: string; bucket: number; count: number }[]>;
  /** The tags `domain`'s events carry (since the tag was last deleted), with description and first/last event time. */
  listTags(domain: string): Promise<TagInfo[]>;
  /** Sets a tag's description, or (deleted) hides its events so far. */
  putTagInfo(domain: string, tag: string, change: { description?: string; deletedAt?: number }): Promise<void>;
  addSuppressions(s: Suppression[]): Promise<void>;
  getSuppression(domain: string, type: string, address: string): Promise<Suppression | null>;
  findSuppressed(domain: string, addresses: string[]): Promise<Suppression[]>;
  /** True when any domain of this zone has `address` on its `type` list. */
  isListedAnywhere(address: string, type: string): Promise<boolean>;
  /** In address order after `after` / before `before`; `descending` lists from the end (nearest `before` first). */
  listSuppressions(q: { domain: string; type?: string; after?: string; before?: string; descending?: boolean; limit: number; address?: string }): Promise<Suppression[]>;
  deleteSuppression(domain: string, type: string | null, address: string): Promise<number>;
  deleteAllSuppressions(domain: string, type: string): Promise<number>;
  countSends(domain: string, since: number): Promise<number>;
  /** Position of a named cursor in the events table (0 when never set). */
  cursor(name: string): Promise<number>;
  eventsAfter(rowid: number, limit: number): Promise<{ rowid: number; event: MessageEvent }[]>;
  /** Writes outbox items and moves the cursor in one transaction. */
  enqueueWebhooks(items: OutboxItem[], cursorName: string, cursor: number): Promise<void>;
  /** Writes outbox items that come from no event (bot verdict pushes). */
  enqueueOutbox(items: OutboxItem[]): Promise<void>;
  /** Claims due items for `leaseMs`: at most `perUrl` per URL, none of `skipUrls` (targets busy or backed off). */
  claimWebhooks(now: number, limit: number, leaseMs: number, opts?: { perUrl?: number; skipUrls?: string[] }): Promise<OutboxItem[]>;
  /** Makes every claimed, unfinished outbox item due now: run once by a starting server. */
  releaseWebhookClaims(now: number): Promise<number>;
  /** Gives up unclaimed pending items created before `createdBefore`; returns them counted per URL. */
  expireWebhooks(now: number, createdBefore: number): Promise<{ url: string; count: number; lastError: string | null }[]>;
  finishWebhook(id: string, status: OutboxItem["status"], attempts: number, nextAttemptAt: number, error: string | null, now: number): Promise<void>;
  webhookStats(): Promise<{ status: string; count: number }[]>;
  nextWebhookDueAt(): Promise<number | null>;
  /** Bot-detection results by domain and request id; entries older than `olderThan` are dropped first. */
  putBotResult(r: { domain: string; requestId: string; body: string; createdAt: number }, olderThan: number): Promise<void>;
  getBotResult(domain: string, requestId: string): Promise<{ body: string; createdAt: number } | null>;
}

export interface Store {
  control: ControlStore;
  /** Stored templates and lists (control data: shared by every zone). */
  templates: TemplateRepo;
  lists: ListRepo;
  zone(name: string): ZoneStore;
  zoneNames(): string[];
  close(): void;
}

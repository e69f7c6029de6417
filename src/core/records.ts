// The domain's stored nouns: what the store port (store-port.ts) reads and writes. Engines map
// their rows to these; nothing here knows how they are kept.
import type { ApiKey, DkimKey, DomainSettings, SuppressionType } from "./model.ts";

export interface NewDomain extends DomainSettings {
  name: string;
  zone: string;
  wildcard: boolean;
  dkimSelector: string;
  keys: Omit<DkimKey, "domainId">[];
  /** The owning tenant (default 0, the primary). */
  tenantId?: number;
}

export interface StoredKey extends ApiKey { hash: string; revokedAt: number | null }

export interface Credential { domainId: number; login: string; hash: string; createdAt: number }

/** A web console session: `tokenHash` is the SHA-256 of the cookie's token. */
/** A console sign-in: by a key (keyId) or by a console user (userId); exactly one is set. */
export interface ConsoleSession {
  tokenHash: string; keyId: string | null; userId?: string | null; csrf: string; createdAt: number; expiresAt: number;
  /** The tenant a user of every tenant chose to act for (the console's tenant switcher); null or absent: none chosen. */
  tenant?: number | null;
}

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
  /** The owning tenant; absent: 0. An account-wide target receives the events of its tenant's domains only. */
  tenantId?: number;
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
  /** The egress source's address the message must go out from (Mailgun's o:sending-ip). */
  sendingIp?: string;
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
  /** The local address the last attempt went out from and its egress pool (docs/egress.md); absent before any attempt. */
  sourceIp?: string | null;
  ipPool?: string | null;
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

/** The suppression type of an unsubscribe group's entries. */
export type GroupSuppressionType = `group:${number}`;

/**
 * Lists that only report, never stop mail: addresses a receiver blocked mail to (the mail or its
 * sender was refused, not the address) and addresses found invalid (SendGrid's blocks and invalid emails).
 */
export type ReportListType = "blocks" | "invalid";

export interface Suppression {
  domain: string;
  type: SuppressionType | GroupSuppressionType | ReportListType;
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
  /** The attempt's source address and pool; absent or null: the row keeps the ones it had (no attempt went out). */
  sourceIp?: string | null;
  ipPool?: string | null;
}

/**
 * A named kind of mail recipients may leave on its own (SendGrid's unsubscribe groups). Its
 * entries are suppressions of type `group:<id>` (core/unsubscribe-groups.ts); `domainId` null =
 * made with an account key, usable by every domain.
 */
export interface UnsubscribeGroup { id: number; domainId: number | null; tenantId: number; name: string; description: string; isDefault: boolean; createdAt: number }

/** A batch of scheduled mail that can be held: paused (waits until released) or cancelled (never sent). */
export interface SendBatch { id: string; domainId: number | null; tenantId: number; hold: "pause" | "cancel" | null; createdAt: number; updatedAt: number }

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

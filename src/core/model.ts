// Domain types shared by every layer. Times are integer milliseconds (UTC); ids are generated in
// the application. Nothing here knows about HTTP, SQL or SMTP.
import type { Role } from "./team/roles.ts";

export type DomainState = "unverified" | "active" | "disabled";
export type KeyKind = "account" | "domain";
export type SuppressionType = "bounces" | "unsubscribes" | "complaints" | "whitelists";

export interface Account {
  id: number;
  webhookSigningKey: string;
  createdAt: number;
}

export interface DomainSettings {
  validation: boolean;
  botDetection: boolean;
  openTracking: boolean;
  clickTracking: boolean;
  unsubscribeTracking: boolean;
  /** Receives mail for its addresses on the inbound SMTP listener (routed by the vendor APIs). */
  inbound: boolean;
  /** Sending limit: at most `limitMax` messages per `limitWindow` ("hour", "day", "month"). 0 = none. */
  limitMax: number;
  limitWindow: string;
  /** The egress pool its mail goes out through unless a message names one ("" or absent: the default pool). */
  pool?: string;
}

/** A domain's tracking host (docs/tracking-hosts.md): `host` "" is the default `email.<domain>`; `state` is what the last check found. */
export interface DomainTracking {
  host: string;
  state: "pending" | "resolving" | "https";
  /** What the last check saw, in a sentence ("resolves to 203.0.113.9, not this server"). */
  note: string;
  /** When `state` or `note` last changed (ms), 0 before the first check. */
  changedAt: number;
}

export interface Domain extends DomainSettings {
  id: number;
  name: string;
  zone: string;
  state: DomainState;
  wildcard: boolean;
  dkimSelector: string;
  createdAt: number;
  updatedAt: number;
  /** Absent on objects made before tracking hosts (tests): the default host, pending. */
  tracking?: DomainTracking;
  /** The tenant that owns the domain (core/tenants.ts); absent (objects made in tests): 0, the primary. */
  tenantId?: number;
}

export interface DkimKey {
  domainId: number;
  selector: string;
  algorithm: "rsa-sha256" | "ed25519-sha256";
  privateKeyPem: string;
  /** The base64 public key as published in the `p=` tag. */
  publicKey: string;
  /** Lifecycle (core/dkim-rotation.ts); absent on keys built outside the store (tests): active. */
  state?: DkimKeyState;
  createdAt?: number;
  activatedAt?: number | null;
  /** A retiring key's end of publication; a pending key's null. */
  retireAt?: number | null;
}

/** pending (published, not yet seen) → active (signs) → retiring (published, unused) → retired (safe to remove). */
export type DkimKeyState = "pending" | "active" | "retiring" | "retired";

export interface ApiKey {
  id: string;
  kind: KeyKind;
  domainId: number | null;
  label: string;
  /** SparkPost-style grants; empty means every grant of the key's kind. */
  grants: string[];
  createdAt: number;
  lastUsedAt: number | null;
  /** The tenant whose key it is; absent: 0, the primary account. */
  tenantId?: number;
}

/** Who is calling: the result of authenticating an API key or SMTP credential. */
export interface Principal {
  accountId: number;
  keyId: string;
  kind: KeyKind;
  /** Set for domain keys and SMTP credentials: the only domain this principal may act on. */
  domain: Domain | null;
  grants: string[];
  /** Set when a console user (core/team) signed in: the actor the audit log names; keyId is then "". */
  userId?: string;
  /** The console user's role (core/team/roles.ts); its rights are in `grants`. */
  role?: Role;
  /** A console user who must enrol TOTP first ([console] require_totp): only their own TOTP routes answer. */
  mustEnrol?: boolean;
  /** A console user's membership: the one tenant it is for, null for every tenant (core/permissions.ts actForUser). */
  membership?: number | null;
  /** The tenant the principal acts for: its key's own, or one a vendor header named (core/permissions.ts actFor); absent: 0. */
  tenant?: number;
  /** Reads cover every tenant (SparkPost without X-MSYS-SUBACCOUNT, a primary key only). */
  readAll?: boolean;
  /** The acting tenant is suspended (or terminated): reads only, no sending. */
  readOnly?: boolean;
  /** Acts for a tenant other than its own (a vendor header, the console's switcher): its sends are in the audit log. */
  onBehalf?: boolean;
  /** A primary account principal that named no tenant (no header): SparkPost's account-wide webhooks it makes see every tenant. */
  noTenantNamed?: boolean;
  /**
   * Names of other tenants' domains, set by actFor: a route naming one is refused (a domain that does not exist
   * still gets the handler's 404). Absent: no tenant limit (reads of every tenant).
   */
  foreignDomains?: ReadonlySet<string>;
}

export interface Address {
  email: string;
  name?: string;
}

export interface Attachment {
  filename: string;
  contentType: string;
  content: Uint8Array;
  /** Set for inline parts (referenced from HTML as cid:...). */
  contentId?: string;
  disposition: "attachment" | "inline";
}

export interface TrackingFlags {
  opens?: boolean;
  clicks?: boolean;
  unsubscribe?: boolean;
  /** Also rewrite links in the text part (SendGrid click_tracking.enable_text). */
  clickText?: boolean;
  /** Put the open pixel where this tag is (SendGrid open_tracking.substitution_tag). */
  openTag?: string;
  /** Unsubscribe groups a preferences link offers (SendGrid asm.groups_to_display). */
  groups?: number[];
}

/**
 * A normalized send request: what every surface, the CLI and SMTP submission hand to the core.
 * Bodies are final (templating already applied per envelope by the surface) unless `raw` is set,
 * in which case the MIME message is sent as is (Mailgun messages.mime, SparkPost email_rfc822, SMTP).
 */
export interface SendRequest {
  domain: string;
  from: Address;
  replyTo?: Address[];
  envelopes: SendEnvelope[];
  attachments?: Attachment[];
  tags?: string[];
  /** Kept with the send for reporting (SparkPost campaign_id, description, template_id; SendGrid batch_id, asm; ip pools). */
  campaignId?: string;
  ipPool?: string;
  /** The egress source's address to send from (Mailgun's o:sending-ip); must be a configured source. */
  sendingIp?: string;
  batchId?: string;
  asmGroupId?: number;
  description?: string;
  templateId?: string;
  callbackUrl?: string;
  tracking?: TrackingFlags;
  isTransactional?: boolean;
  isTestMode?: boolean;
  skipSuppression?: boolean;
  /**
   * What the message came in through: an API surface's name (src/api/surfaces.ts), "cli", "smtp"
   * or "forward". Picks the callback_url webhook format (each format lists its sources).
   */
  source: string;
}

/** One rendered message to one set of recipients (one per recipient when data differs). */
export interface SendEnvelope {
  to: Address[];
  cc?: Address[];
  bcc?: Address[];
  /**
   * Shown in the To / Cc headers instead of `to` / `cc`, never delivered to (SparkPost header_to and
   * content.headers.CC: every recipient gets its own copy showing the same header lists).
   */
  displayTo?: Address[];
  displayCc?: Address[];
  from?: Address;
  subject: string;
  text?: string;
  html?: string;
  amp?: string;
  headers?: Record<string, string>;
  /** This envelope's tags instead of the request's (SparkPost recipient tags). */
  tags?: string[];
  /** custom_args / user-variables / metadata: never substituted, carried to events. */
  metadata?: Record<string, string>;
  sendAt?: number;
  /** A complete MIME message (RFC 5322) to send as is instead of composing one. */
  raw?: Uint8Array;
  /** Field path of this envelope in the surface's request (`personalizations.0`), for error messages. */
  path?: string;
}

export interface SendResult {
  /** Id of the first message; every envelope's message id is in `messages`. */
  id: string;
  /** Id of the whole request (SendGrid's X-Message-Id names the request, not one message). */
  sendId: string;
  messages: { id: string; messageIdHeader: string; recipients: string[] }[];
  accepted: number;
  rejected: { email: string; reason: string }[];
}

export type EventType =
  | "accepted"
  | "delivered"
  | "deferred"
  | "failed"
  | "opened"
  | "clicked"
  | "unsubscribed"
  | "complained"
  | "rejected";

/** postern's own reasons for a failure (see MessageEvent.reason). */
export type FailureReason = "suppressed" | "cancelled" | "old";
export type SuppressingList = "bounces" | "unsubscribes" | "complaints";

/** A failure decided here without an attempt: a suppressed recipient at accept time, or a cancelled one. */
export const isDrop = (e: Pick<MessageEvent, "type" | "reason">): boolean => e.type === "failed" && (e.reason === "suppressed" || e.reason === "cancelled");

/** A delivery's TLS session as events report it; `dane`: "verified" (TLSA matched), "failed" (a TLSA mismatch), "none" (no DANE). */
export interface TlsSession { version: string; cipher: string; dane: "verified" | "failed" | "none" }

export interface MessageEvent {
  id: string;
  type: EventType;
  messageId: string;
  recipient: string;
  domain: string;
  timestamp: number;
  severity?: "temporary" | "permanent";
  code?: number;
  enhancedCode?: string;
  description?: string;
  mx?: string;
  url?: string;
  ip?: string;
  userAgent?: string;
  isBot?: boolean;
  botReasons?: string[];
  /** The recipient row the event belongs to (VERP and tracking tokens carry it). */
  recipientId?: string;
  /**
   * Why a failure happened when no receiver said so (no SMTP reply): "suppressed" (the address was
   * on a suppression list at accept time; `suppressedBy` names the list), "cancelled" (its
   * scheduled-send batch was cancelled or held past its lifetime), "old" (the queue lifetime ran
   * out). Each surface and webhook format reports these in its vendor's codes and words.
   */
  reason?: FailureReason;
  /** The list that held a "suppressed" recipient (unsubscribe groups count as unsubscribes). */
  suppressedBy?: SuppressingList;
  /** A test-mode "delivered": accepted and recorded, never sent. */
  testMode?: boolean;
  /** SparkPost bounce class (core/bounce) of a failure or deferral: the one verdict every webhook
   *  format maps to its vendor's fields. Absent on events recorded before classification existed. */
  bounceClass?: number;
  /** An unsubscribe from one unsubscribe group only (core/unsubscribe-groups.ts), not from all mail. */
  unsubscribeGroup?: number;
  /**
   * Opens and clicks: which first this was for its message and recipient, decided when it was
   * recorded (core/stats/firsts.ts), so unique counts are sums that outlive the events behind them.
   */
  firsts?: ("once" | "human" | "engaged" | "human-engaged")[];
  /** Whether the delivery attempt ran over TLS (false, or the session: protocol, cipher, DANE outcome; `true` on events
   *  recorded before #42), and its number (1 for the first). */
  tls?: boolean | TlsSession;
  attempt?: number;
  /** A delivery attempt's local (source) address and its egress pool (docs/egress.md); no pool: a source in none. */
  sendingIp?: string;
  ipPool?: string;
  tags: string[];
  metadata: Record<string, string>;
}

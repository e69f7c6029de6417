// Inbound mail, engine-neutral: the routing rules each vendor's API configures, and a received
// message as stored before the 250. Vendor objects are kept as their own spec so every surface
// reads back exactly what it wrote.

export interface InboundAuth {
  spf: string;
  dkim: { domain: string; result: string }[];
  dmarc: string;
}

/** What SMTP gave us, stored with the raw message before the 250. */
export interface ReceivedEnvelope {
  id: string;
  domain: string;
  mailFrom: string;
  rcptTo: string[];
  remoteIp: string;
  heloName: string;
  receivedAt: number;
  auth: InboundAuth;
}

/** The routing rules of inbound mail: a route (an expression and actions, account-wide, Mailgun's),
 *  a parse setting (a hostname posted to one URL, SendGrid's), an inbound domain and the relay
 *  webhooks matching it (SparkPost's). */
export interface RouteSpec { priority: number; description: string; expression: string; actions: string[] }
export interface ParseSettingSpec { hostname: string; url: string; spamCheck: boolean; sendRaw: boolean }
export interface InboundDomainSpec { domain: string }
export interface RelayWebhookSpec { name: string; target: string; authToken: string; matchDomain: string; protocol: string }

export interface RuleSpecs {
  route: RouteSpec;
  "parse-setting": ParseSettingSpec;
  "inbound-domain": InboundDomainSpec;
  "relay-webhook": RelayWebhookSpec;
}
export type RuleKind = keyof RuleSpecs;

export interface InboundRule<K extends RuleKind = RuleKind> {
  id: string;
  kind: K;
  /** The postern domain the rule belongs to (parse hostnames and inbound domains may be subdomains); null: account-wide (Mailgun routes). */
  domainId: number | null;
  /** The owning tenant (a domain's rule: the domain's tenant); absent: 0, the primary. */
  tenantId?: number;
  spec: RuleSpecs[K];
  createdAt: number;
}

export interface InboundRuleStore {
  /** Every rule of `kind`, or (given) only the tenant's. */
  listRules<K extends RuleKind>(kind: K, tenant?: number): Promise<InboundRule<K>[]>;
  getRule<K extends RuleKind>(kind: K, id: string): Promise<InboundRule<K> | null>;
  insertRule(rule: InboundRule): Promise<void>;
  updateRule(rule: InboundRule): Promise<boolean>;
  deleteRule(kind: RuleKind, id: string): Promise<boolean>;
}

/** One post owed for a received message: which format, where, and what it needs to build it. */
export interface InboundPostItem {
  id: string;
  /** An inbound format name of webhooks/registry.ts (the receiver picks it from the rule). */
  format: string;
  url: string;
  recipient: string;
  /** The rule that asked for it (route id, parse hostname, relay webhook id). */
  ruleId: string;
  /** What the format needs of the rule as it was when the message arrived (send_raw, auth token…). */
  options: Record<string, unknown>;
}

export interface StoredInbound {
  envelope: ReceivedEnvelope;
  /** The whole message as posted: our trace headers, then the bytes received. */
  raw: Uint8Array;
  storageKey: string;
  expiresAt: number;
}

/** A received message as committed: its body was streamed in before, as pieces under `bodyId`. */
export interface NewInbound {
  envelope: ReceivedEnvelope;
  /** Authentication-Results and Received, put in front of the body when it is read. */
  trace: Uint8Array;
  bodyId: string;
  storageKey: string;
  expiresAt: number;
}

/** Pieces of a message not yet committed older than this are left-overs of a lost connection. */
export const ORPHAN_BODY_MS = 3_600_000;

export interface InboundMessageStore {
  /**
   * Appends piece `seq` (0, 1, …) of a message body being received: durable, readable by every node
   * of the zone, invisible until a message row names `bodyId`. Bodies are streamed this way so no
   * connection holds a whole message in memory.
   */
  appendInboundBody(bodyId: string, seq: number, data: Uint8Array, now: number): Promise<void>;
  /** Drops the pieces of a body no message will name (refused, too big, failed). */
  discardInboundBody(bodyId: string): Promise<void>;
  /** Stores the message (naming its streamed body) and the posts it owes in one transaction: durable before the 250. */
  storeInbound(m: NewInbound, posts: InboundPostItem[], now: number): Promise<void>;
  getInbound(id: string): Promise<StoredInbound | null>;
  getInboundByKey(storageKey: string): Promise<StoredInbound | null>;
  /** Deletes messages past their expiry, bodies no message names any more and pieces left over for ORPHAN_BODY_MS; returns how many messages. */
  purgeInbound(now: number): Promise<number>;
}

// The shape every webhook format implements (formats/<name>.ts, listed in registry.ts). Fan-out,
// delivery and target choice only go through this interface: they never ask which format it is.
import type { MessageEvent } from "../core/model.ts";
import type { StoredInbound } from "../core/inbound/model.ts";
import type { WebhookTarget } from "../core/store-port.ts";
import type { OutboundRequest, PinnedResponse } from "../net/pinned-request.ts";

/** What a format may use to build and sign a request or a ping. */
export interface FormatContext {
  now: number;
  /** The outbox item's domain (the sending domain), or "" for account-level pings. */
  domain: string;
  /** The domain target, or null for a message's callback_url and bot pushes. */
  target: WebhookTarget | null;
  /** HMAC key for Mailgun-style signatures: the domain's own key, the installation's for account-level targets. */
  signingKey: string;
  /** The installation-wide HMAC key (account-level objects such as Mailgun routes). */
  accountSigningKey: string;
  /** Base of links into this server (server.public_url): stored inbound messages' URLs. */
  publicUrl: string;
  /** A received message of the item's domain, for the inbound formats; null once expired. */
  inbound(id: string): Promise<StoredInbound | null>;
  /** SpamAssassin's verdict on a received message (Inbound Parse spam_check); null: not checked (no spamd, too big, no answer in time). */
  spamCheck(raw: Uint8Array): Promise<{ scoreText: string; report: string } | null>;
  /** PEM of the installation's ECDSA P-256 key (SendGrid-format signatures). */
  eventWebhookKey: string;
  /** An OAuth 2.0 client-credentials token, cached per target and credentials (oauth.ts). */
  oauthToken(details: { url: string; body?: Record<string, unknown> }): Promise<string>;
  /** The pinned, guarded outbound request (net/pinned-request.ts) with this format's timeout. */
  send(url: string, init: OutboundRequest): Promise<PinnedResponse>;
}

export interface BuiltRequest { body: string | Uint8Array; headers: Record<string, string> }

export interface WebhookFormat {
  /** Stored in WebhookTarget.format and OutboxItem.format. */
  name: string;
  /** Items per POST: 1 sends each event alone, more batches a target's events. */
  batchSize: number;
  /** The sources (the API a message was sent through) whose callback_url gets this format. */
  callbackSources: string[];
  /** True when `target` (of this format, active) wants `event`. Never called for pushes (bot). */
  subscribes(target: WebhookTarget, event: MessageEvent): boolean;
  /** Body and headers (signature, auth) of one POST; `batch` is the stored payload array. */
  request(batch: unknown[], ctx: FormatContext): Promise<BuiltRequest>;
  /** True when a non-2xx `status` means "rejected: do not retry". */
  isFinal(status: number): boolean;
  /** How long an unacknowledged POST is retried when the vendor documents its own window; else `[webhooks] lifetime`. */
  lifetimeMs?: number;
  /** An example payload of `type` as a receiver gets it (signed when the format signs). */
  sample(type: string, ctx: Pick<FormatContext, "now" | "domain" | "signingKey">): unknown;
  /** The test POST made when a target is created or validated; resolves with the answer (any status). */
  ping(url: string, ctx: FormatContext, message?: unknown): Promise<PinnedResponse>;
}

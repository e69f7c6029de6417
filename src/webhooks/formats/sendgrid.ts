// SendGrid's event webhook format: a JSON array of flat events, signed with ECDSA P-256/SHA-256
// over timestamp + body (headers X-Twilio-Email-Event-Webhook-Signature / -Timestamp), verifiable
// with the public key `postern account show` prints (SendGrid's "verification key").
import { createSign } from "node:crypto";
import { isDrop, type MessageEvent } from "../../core/model.ts";
import { seconds, type EventContext } from "../context.ts";
import type { FormatContext, WebhookFormat } from "../format.ts";
import type { WebhookTarget } from "../../core/store-port.ts";
import { switchOf } from "./sendgrid-settings.ts";
import { sendgridBounceType, sendgridClassification } from "./bounce-fields.ts";
import { reportedDescription } from "./reported.ts";

export const SIGNATURE_HEADER = "X-Twilio-Email-Event-Webhook-Signature";
export const TIMESTAMP_HEADER = "X-Twilio-Email-Event-Webhook-Timestamp";

const SENDGRID_EVENT: Record<MessageEvent["type"], string> = {
  accepted: "processed", delivered: "delivered", deferred: "deferred", failed: "bounce", opened: "open", clicked: "click",
  unsubscribed: "unsubscribe", complained: "spamreport", rejected: "dropped",
};

/** SendGrid's name of `e`: a suppressed (or cancelled) recipient is dropped, a temporary failure deferred. */
export function sendgridEventName(e: MessageEvent): string {
  if (isDrop(e)) return "dropped";
  if (e.type === "failed" && e.severity === "temporary") return "deferred";
  if (e.type === "unsubscribed" && e.unsubscribeGroup !== undefined) return "group_unsubscribe";
  return SENDGRID_EVENT[e.type];
}

/**
 * SendGrid's `<X-Message-Id>.filter…`: the send's id (what the send answered as X-Message-Id),
 * then this message and recipient, so every event of a send starts with the id the sender kept.
 */
export function sgMessageId(ctx: EventContext): string {
  const messageId = ctx.message?.id ?? ctx.event.messageId;
  return sgMessageIdOf(ctx.message?.sendId ?? messageId, messageId, ctx.event.recipientId ?? "0");
}

export const sgMessageIdOf = (sendId: string, messageId: string, recipientId: string) => `${sendId}.filter.${messageId}.${recipientId}`;

/** An id a SendGrid client holds: an sg_message_id names one recipient, an X-Message-Id a send. */
export function parseSgMessageId(id: string): { sendId: string; messageId?: string; recipientId?: string } {
  const m = /^([0-9a-z]+)\.filter\.([0-9a-z]+)\.([0-9a-z]+)$/.exec(id);
  return m ? { sendId: m[1]!, messageId: m[2]!, recipientId: m[3]! } : { sendId: id };
}

export function sendgridEvent(ctx: EventContext): Record<string, unknown> {
  const e = ctx.event;
  const out: Record<string, unknown> = {
    ...e.metadata, // custom_args are top-level fields in SendGrid's events
    email: e.recipient, timestamp: seconds(e.timestamp), event: sendgridEventName(e), sg_event_id: e.id,
    sg_message_id: sgMessageId(ctx), "smtp-id": ctx.message?.messageIdHeader ?? "",
    category: e.tags,
    ...(e.unsubscribeGroup !== undefined ? { asm_group_id: e.unsubscribeGroup }
      : ctx.message?.asmGroupId !== undefined ? { asm_group_id: ctx.message.asmGroupId } : {}),
  };
  if (e.type === "failed" || e.type === "deferred" || e.type === "delivered") {
    out.response = reportedDescription(e) ?? "";
    if (e.type !== "delivered") { out.reason = reportedDescription(e) ?? ""; out.status = e.enhancedCode ?? ""; }
    if (out.event === "bounce") out.type = sendgridBounceType(e);
    if (out.event === "bounce" || out.event === "deferred") out.bounce_classification = sendgridClassification(e);
    // SendGrid's `ip` on delivery events: "the IP address used to send the email".
    if (e.sendingIp) out.ip = e.sendingIp;
  }
  if (e.type === "opened" || e.type === "clicked" || e.type === "unsubscribed") {
    out.ip = e.ip ?? "";
    out.useragent = e.userAgent ?? "";
    if (e.isBot !== undefined) { out.is_bot = e.isBot; out.bot_reasons = e.botReasons ?? []; }
    if (e.type === "opened") out.sg_machine_open = Boolean(e.isBot);
    if (e.url) out.url = e.url;
  }
  return out;
}

/** The body and signing headers of one batch. */
export function sendgridRequest(events: Record<string, unknown>[], privateKeyPem: string, nowMs: number): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify(events);
  const timestamp = String(seconds(nowMs));
  const signature = createSign("sha256").update(timestamp + body).sign(privateKeyPem).toString("base64");
  return { body, headers: { [SIGNATURE_HEADER]: signature, [TIMESTAMP_HEADER]: timestamp } };
}

/** An Event Webhook with event switches (settings API) posts only the events switched on. */
function subscribes(target: WebhookTarget, e: MessageEvent): boolean {
  const types = target.extra.types;
  return !Array.isArray(types) || types.includes(switchOf(sendgridEventName(e)));
}

/** The Event Webhook's OAuth (client credentials) bearer token, when its settings name a token URL. */
async function oauthHeaders(target: WebhookTarget | null, ctx: FormatContext): Promise<Record<string, string>> {
  const x = target?.extra ?? {};
  if (typeof x.oauth_token_url !== "string" || !x.oauth_token_url) return {};
  const token = await ctx.oauthToken({ url: x.oauth_token_url, body: { grant_type: "client_credentials", client_id: x.oauth_client_id, client_secret: x.oauth_client_secret } });
  return { Authorization: `Bearer ${token}` };
}

async function signedRequest(events: Record<string, unknown>[], ctx: FormatContext) {
  const { body, headers } = sendgridRequest(events, ctx.eventWebhookKey, ctx.now);
  return { body, headers: { ...headers, ...(await oauthHeaders(ctx.target, ctx)) } };
}

const TYPE_OF: Record<string, MessageEvent["type"]> = Object.fromEntries(Object.entries(SENDGRID_EVENT).map(([k, v]) => [v, k as MessageEvent["type"]]));

/** One example event of SendGrid event name `type` ("delivered", "open"...; native names too). */
function sampleEvent(type: string, ctx: { now: number; domain: string }): Record<string, unknown> {
  const t = TYPE_OF[type] ?? (type in SENDGRID_EVENT ? type as MessageEvent["type"] : "delivered");
  return sendgridEvent({ message: null, event: { id: `sample-${t}`, type: t, messageId: "sample", recipient: "alice@example.org", domain: ctx.domain,
    timestamp: ctx.now, tags: ["sample"], metadata: {}, ...(t === "failed" ? { code: 550, enhancedCode: "5.1.1", description: "550 5.1.1 no such user" } : {}) } });
}

export const sendgrid: WebhookFormat = {
  name: "sendgrid",
  batchSize: 100,
  callbackSources: ["sendgrid"],
  subscribes,
  request: (batch, ctx) => signedRequest((batch as EventContext[]).map(sendgridEvent), ctx),
  isFinal: () => false,
  sample: (type, ctx) => [sampleEvent(type, ctx)],
  ping: async (url, ctx: FormatContext, message) => {
    const { body, headers } = await signedRequest((message as Record<string, unknown>[] | undefined) ?? [sampleEvent("delivered", ctx)], ctx);
    return ctx.send(url, { body, headers: { ...headers, "content-type": "application/json", "user-agent": "postern-webhooks/1" } });
  },
};

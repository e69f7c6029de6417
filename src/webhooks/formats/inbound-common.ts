// What the inbound formats share: an outbox item of theirs names a received message, one of its
// recipients and where it goes; the body is built from the stored message when it is posted, so
// a retry days later is signed afresh.
import type { BuiltRequest, FormatContext, WebhookFormat } from "../format.ts";
import type { StoredInbound } from "../../core/inbound/model.ts";
import { parseReceived, type ParsedMail } from "../inbound/received.ts";

export interface InboundItem { inboundId: string; recipient: string; ruleId: string; url: string; options?: Record<string, unknown> }

export interface LoadedInbound { item: InboundItem; stored: StoredInbound; mail: ParsedMail }

export async function loadItem(batch: unknown[], ctx: FormatContext): Promise<LoadedInbound> {
  const item = batch[0] as InboundItem;
  const stored = await ctx.inbound(item.inboundId);
  // Kept three days; an item still pending after that has nothing left to post.
  if (!stored) throw new Error(`received message ${item.inboundId} is no longer stored`);
  return { item, stored, mail: await parseReceived(stored.raw) };
}

export const messageUrl = (ctx: FormatContext, stored: StoredInbound) =>
  `${ctx.publicUrl.replace(/\/$/, "")}/v3/domains/${stored.envelope.domain}/messages/${stored.storageKey}`;

const SAMPLE_RAW = new TextEncoder().encode(
  "From: Alice <alice@sender.example>\r\nTo: support@example.com\r\nSubject: Sample inbound message\r\n" +
  "Message-ID: <sample@sender.example>\r\nDate: Mon, 01 Jan 2026 00:00:00 +0000\r\n\r\nHello from postern\r\n");

const sampleStored = (now: number): StoredInbound => ({
  raw: SAMPLE_RAW, storageKey: "sample", expiresAt: now,
  envelope: { id: "sample", domain: "example.com", mailFrom: "alice@sender.example", rcptTo: ["support@example.com"], remoteIp: "192.0.2.1",
    heloName: "mail.sender.example", receivedAt: now, auth: { spf: "pass", dkim: [], dmarc: "none" } },
});

type Build = (m: LoadedInbound, ctx: FormatContext) => Promise<BuiltRequest> | BuiltRequest;

/** An inbound format: one received message per post, never fanned out from events. */
export function inboundFormat(name: string, build: Build, isFinal: (status: number) => boolean = () => false, options: Record<string, unknown> = {}): WebhookFormat {
  const sampleOf = async (ctx: FormatContext, url: string) => {
    const stored = sampleStored(ctx.now);
    const item: InboundItem = { inboundId: "sample", recipient: "support@example.com", ruleId: "sample", url, options };
    return build({ item, stored, mail: await parseReceived(stored.raw) }, ctx);
  };
  return {
    name, batchSize: 1, callbackSources: [], subscribes: () => false,
    request: async (batch, ctx) => build(await loadItem(batch, ctx), ctx),
    isFinal,
    sample: () => ({ format: name, message: new TextDecoder().decode(SAMPLE_RAW) }),
    ping: async (url, ctx) => { const r = await sampleOf(ctx, url); return ctx.send(url, { method: "POST", body: r.body, headers: r.headers }); },
  };
}

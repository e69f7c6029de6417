// What the native bot-detection API does, apart from its wire: classify interactions with the
// shared detector, keep single-interaction results (an hour, per domain) and queue verdict pushes
// as durable outbox items (webhooks/bot-verdicts.ts), limit single-interaction requests per
// domain, and keep the spec's minimum latency of that mode. The surface reads and writes only.
import type { Domain } from "../core/model.ts";
import { AppError } from "../core/errors.ts";
import { newId } from "../core/ids.ts";
import type { BotVerdicts } from "../webhooks/bot-verdicts.ts";
import type { BotDetector } from "./bot-detector.ts";
import { burstGroups, withLookAhead, type JudgedEvent } from "./bot-batch.ts";

const SINGLE_MIN_LATENCY_MS = 1_000;
const SINGLE_PER_SECOND = 5;

/** One interaction as the API takes it (spec S2 bots: seconds, the caller's field names). */
export interface BotEvent {
  ip?: string;
  uas?: string;
  event_id?: string;
  action?: "open" | "click";
  domain?: string;
  recipient_id?: string;
  message_id?: string;
  ts?: number;
  message_ts?: number;
  [extra: string]: unknown;
}

type BotDomain = Pick<Domain, "name" | "zone">;

/**
 * Which link a click fetched, for the per-client patterns (a scanner fetches several links within
 * seconds; a person one at a time). The spec's event names no link: a caller's own `url`
 * attribute, when it adds one, is the link; else each second of a client's clicks counts as one
 * fetch, the finest the spec's `ts` can tell apart, so a double click (two events within the
 * same second) stays one fetch while clicks in different seconds are different fetches. A double
 * click is two requests: each further click with the same UA on the recipient's message within that
 * second (`sameSecond`, counted in the batch), from any address, is another fetch, as a sandbox
 * fetching a message's links at once, from one address or spread over several, makes them.
 */
function linkOf(e: BotEvent, at: number | undefined, sameSecond = 0): string | undefined {
  if ((e.action ?? "click") !== "click") return undefined;
  if (typeof e.url === "string" && e.url) return `url:${e.url.slice(0, 2048)}`;
  // Without a time, no second can be told from another: the client's clicks are one link, as before.
  if (at === undefined) return "click";
  const second = `second:${Math.floor(at / 1000)}`;
  return sameSecond < 2 ? second : `${second}:${sameSecond}`;
}

/** For each event, how many clicks with the same UA on the same recipient's message came before it within its second. */
function sameSecondOrdinals(events: readonly BotEvent[]): number[] {
  const seen = new Map<string, number>();
  return events.map((e) => {
    // Only where classify() places the event in a second (a finite `ts`); otherwise its link is "click" anyway.
    if ((e.action ?? "click") !== "click" || typeof e.ts !== "number" || !Number.isFinite(e.ts)) return 0;
    const key = `${e.message_id}\u0000${e.recipient_id ?? ""}\u0000${e.uas ?? ""}\u0000${Math.floor(e.ts)}`;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return n;
  });
}

export function createBotApi(deps: { detector: BotDetector; verdicts: BotVerdicts; now: () => number }) {
  const rate = new Map<string, { second: number; count: number }>();
  const seconds = (ms: number) => Math.floor(ms / 1000);

  const classify = async (domain: BotDomain, e: BotEvent, sameSecond = 0) => {
    // `ts` names a whole second: the event is placed at its end, so what happened within that second
    // (a hit on the hidden link, timed to the millisecond) comes before it.
    const at = typeof e.ts === "number" && Number.isFinite(e.ts) ? Math.floor(e.ts) * 1000 + 999 : undefined;
    const verdict = await deps.detector.classify({
      zone: domain.zone, ip: e.ip ?? "", userAgent: e.uas ?? "", action: e.action ?? "click", domain: e.domain, messageId: e.message_id, recipientId: e.recipient_id,
      // message_ts is placed like ts (the end of its second) only when ts is: the difference stays whole seconds.
      linkId: linkOf(e, at, sameSecond), isLinkInferred: !(typeof e.url === "string" && e.url), at, deliveredAt: e.message_ts ? Math.floor(e.message_ts) * 1000 + (at === undefined ? 0 : 999) : undefined, sendingDomain: domain.name,
    });
    return { at, verdict };
  };

  /** What the batch's look-ahead (bot-batch.ts) knows of a click besides its verdict. */
  function lookAheadKeys(e: BotEvent): Omit<JudgedEvent, "at" | "verdict"> {
    const ip = e.ip ?? "";
    const groups = burstGroups(e, deps.detector.clientsOf(ip, e.uas ?? ""));
    if (!groups.length) return { groups };
    const space = deps.detector.checkSpaceOf(ip);
    const sinceDelivery = typeof e.ts === "number" && typeof e.message_ts === "number" ? Math.floor(e.ts) - Math.floor(e.message_ts) : NaN;
    return { groups, message: `${e.message_id}\u0000${e.recipient_id ?? ""}`, ...(typeof e.url === "string" && e.url ? { link: e.url } : {}),
      ...space, ...(space.cloud !== undefined ? { address: ip } : {}), ...(Number.isFinite(sinceDelivery) ? { sinceDelivery } : {}) };
  }

  function limitSingle(domain: string) {
    const second = seconds(deps.now());
    const r = rate.get(domain);
    if (r && r.second === second && r.count >= SINGLE_PER_SECOND) throw new AppError("rate_limited", "too many single-interaction requests; use batch mode");
    rate.set(domain, r && r.second === second ? { second, count: r.count + 1 } : { second, count: 1 });
  }

  return {
    /** One interaction: classified, kept for an hour, pushed to `webhookUrl` when given; never answers before one second. */
    async single(domain: BotDomain, event: BotEvent, webhookUrl?: string) {
      limitSingle(domain.name);
      const started = deps.now();
      const requestId = newId(started);
      const isBot = (await classify(domain, event)).verdict.isBot;
      // The interaction's IP is the end user's; the caller's own address says nothing about it.
      const stored = { is_bot: isBot, request: { action: event.action ?? "click", domain: event.domain ?? "", event_id: event.event_id ?? requestId,
        ip: event.ip ?? "", message_id: event.message_id ?? "", recipient_id: event.recipient_id ?? "", ts: event.ts ?? seconds(started),
        uas: event.uas ?? "", webhook_url: webhookUrl ?? "" } };
      await deps.verdicts.saveResult(domain, requestId, stored);
      await Bun.sleep(Math.max(0, SINGLE_MIN_LATENCY_MS - (deps.now() - started)));
      if (webhookUrl) {
        await deps.verdicts.push(domain, webhookUrl, { batch: { batch_id: requestId, timeQueued: seconds(started) }, events: [{ ...event, is_bot: isBot }] });
      }
      return { request_id: requestId, ...stored };
    },
    /** A batch: every event classified, the verdicts queued as one push to `webhookUrl`. */
    async batch(domain: BotDomain, events: BotEvent[], webhookUrl: string) {
      const started = deps.now();
      const batchId = newId(started);
      // In the order the interactions happened, one at a time, so each is judged with the ones before
      // it; then a burst's first fetches, seen in the batch's later events (bot-batch.ts). The push
      // keeps the caller's order.
      const order = events.map((e, i) => ({ i, ts: typeof e.ts === "number" && Number.isFinite(e.ts) ? e.ts : Infinity })).sort((a, b) => a.ts - b.ts || a.i - b.i);
      await deps.detector.prefetchMx(events.flatMap((e) => (typeof e.domain === "string" ? [e.domain] : [])));
      const judgedInOrder: JudgedEvent[] = [];
      const sameSecond = sameSecondOrdinals(order.map(({ i }) => events[i]!));
      for (const [k, { i }] of order.entries()) judgedInOrder[i] = { ...(await classify(domain, events[i]!, sameSecond[k])), ...lookAheadKeys(events[i]!) };
      const verdicts = withLookAhead(judgedInOrder);
      const judged = events.map((e, i) => ({ ...e, is_bot: verdicts[i]! }));
      await deps.verdicts.push(domain, webhookUrl, { batch: { batch_id: batchId, timeQueued: seconds(started) }, events: judged });
      return { batchId, count: judged.length };
    },
    /** A single-interaction result of this domain, or null when unknown or expired. */
    result: (domain: BotDomain, requestId: string) => deps.verdicts.getResult(domain, requestId),
  };
}

export type BotApi = ReturnType<typeof createBotApi>;

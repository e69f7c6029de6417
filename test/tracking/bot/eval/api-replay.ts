// Turns the independent set into what a sender's ESP and the recipients' clients send a running
// postern: MX records for the recipients' domains (for a real DNS server), honeypot hits as they
// happen, and opens and clicks in the batches an ESP would submit to POST /{domain}/bot. Nothing
// here classifies; api-path.test.ts drives the app and scores the pushed verdicts.

import type { EvalEvent } from "../../../fixtures/bots/eval-set.ts";
import type { ZoneRecord } from "../../../helpers/dnsmasq.ts";
import type { BotEvent } from "../../../../src/tracking/bot-api.ts";

/** The native API's batch limit, and how long an ESP holds events before submitting (the task's choice). */
export const BATCH_MAX_EVENTS = 500;
export const BATCH_MAX_SPAN_MS = 60_000;

/** One MX record per host of each recipient domain, in the order the set lists them (first preferred). */
export function mxRecords(events: readonly EvalEvent[]): ZoneRecord[] {
  const byDomain = new Map<string, string[]>();
  for (const e of events) if (e.mxHosts && !byDomain.has(e.recipientDomain)) byDomain.set(e.recipientDomain, e.mxHosts);
  return [...byDomain].flatMap(([name, hosts]) => hosts.map((value, i) => ({ type: "MX" as const, name, value, priority: 10 * (i + 1) })));
}

/** The event as the API takes it: what the ESP knows (delivery time and MX look-up only where the set says so). */
export function toApiEvent(e: EvalEvent): BotEvent {
  const out: BotEvent = { ip: e.ip, uas: e.userAgent, event_id: eventId(e), action: e.kind === "open" ? "open" : "click",
    ts: Math.floor(e.atMs / 1000), recipient_id: e.recipientId, message_id: e.messageId };
  if (e.secondsSinceDelivery !== undefined) out.message_ts = Math.floor(e.atMs / 1000 - e.secondsSinceDelivery);
  // The domain is what makes the product look the MX up: only where the sender would have given it.
  if (e.mxHosts) out.domain = e.recipientDomain;
  return out;
}

export const eventId = (e: EvalEvent) => `e${e.index}`;

export type Step = { kind: "honeypot"; event: EvalEvent } | { kind: "batch"; events: EvalEvent[] };

/**
 * The set in time order as steps: a honeypot hit reaches postern when it happens; opens and clicks
 * wait in the ESP's batch until it holds BATCH_MAX_EVENTS or an event (of any kind) comes more
 * than BATCH_MAX_SPAN_MS after the batch's first, as a timer flushing it then would.
 */
export function* steps(events: readonly EvalEvent[]): Generator<Step> {
  let batch: EvalEvent[] = [];
  for (const e of events) {
    const first = batch[0];
    if (first && e.atMs - first.atMs > BATCH_MAX_SPAN_MS) {
      yield { kind: "batch", events: batch };
      batch = [];
    }
    if (e.kind === "honeypot") {
      yield { kind: "honeypot", event: e };
      continue;
    }
    batch.push(e);
    if (batch.length >= BATCH_MAX_EVENTS) {
      yield { kind: "batch", events: batch };
      batch = [];
    }
  }
  if (batch.length) yield { kind: "batch", events: batch };
}

/** Keeps the events of every `every`-th message only (a smaller replay with whole messages). */
export function everyNthMessage(events: readonly EvalEvent[], every: number): EvalEvent[] {
  return every <= 1 ? [...events] : events.filter((e) => Number(e.messageId.slice(1)) % every === 0);
}

/** The verdicts pushed so far, by event_id, read from a receiver's requests (duplicates of a retried push are the same). */
export function createVerdictLog() {
  const verdicts = new Map<string, boolean>();
  const batches = new Set<string>();
  let read = 0;
  return {
    verdicts,
    batches,
    /** Reads the requests not read yet; returns the payloads that were not bot pushes (shortened). */
    take(received: readonly { json: unknown }[]): string[] {
      const odd: string[] = [];
      for (; read < received.length; read++) {
        const body = received[read]!.json as { batch?: { batch_id?: string }; events?: { event_id?: string; is_bot?: unknown }[] } | null;
        if (!body?.batch?.batch_id || !Array.isArray(body.events)) { odd.push(JSON.stringify(body).slice(0, 200)); continue; }
        batches.add(body.batch.batch_id);
        for (const ev of body.events) if (ev.event_id && typeof ev.is_bot === "boolean") verdicts.set(ev.event_id, ev.is_bot);
      }
      return odd;
    },
  };
}

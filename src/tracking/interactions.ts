// Records what recipients (and the machines in front of them) do with tracked mail: opens,
// clicks and unsubscribes become events with the bot verdict, handed to the recorder (which also
// suppresses an unsubscribed address, in the same transaction).
import type { MessageEvent } from "../core/model.ts";
import type { Store } from "../core/store-port.ts";
import { newId } from "../core/ids.ts";
import { firstsOf } from "../core/stats/firsts.ts";
import type { TrackingPayload } from "./token.ts";
import { GLOBAL_UNSUBSCRIBE_SCOPE, TAG_UNSUBSCRIBE_SCOPE } from "./rewrite.ts";
import type { StoredMessage } from "../core/store-port.ts";
import { TAG_UNSUBSCRIBE_EVENT_URL } from "../core/suppression-policy.ts";
import type { BotDetector } from "./bot-detector.ts";
import type { Recorder } from "../core/recorder.ts";

export interface Hit { ip: string; userAgent: string; method: string }

/**
 * Which unsubscribe group an unsubscribe leaves: the one chosen on the preferences page, none for
 * a global or tag link, else the message's own group (SendGrid's asm.group_id) when it has one.
 */
function groupOf(payload: TrackingPayload, message: StoredMessage, chosen: number | "all" | undefined): number | undefined {
  if (chosen !== undefined) return chosen === "all" ? undefined : chosen;
  if (payload.url === GLOBAL_UNSUBSCRIBE_SCOPE || payload.url === TAG_UNSUBSCRIBE_SCOPE) return undefined;
  return message.extra?.asmGroupId;
}

const EVENT_OF = { open: "opened", click: "clicked", unsubscribe: "unsubscribed" } as const;

export function createInteractionRecorder(deps: { store: Store; recorder: Recorder; detector: BotDetector; now: () => number }) {
  /** The work queued per message and recipient: each runs once the one before it has ended. */
  const turns = new Map<string, Promise<void>>();
  function inTurn(key: string, fn: () => Promise<void>): Promise<void> {
    const run = (turns.get(key) ?? Promise.resolve()).then(fn);
    const tail = run.catch(() => {});
    turns.set(key, tail);
    void tail.then(() => { if (turns.get(key) === tail) turns.delete(key); });
    return run;
  }
  return {
    /** Records one interaction; returns false when the token names nothing we sent. */
    async record(payload: TrackingPayload, hit: Hit, opts: { isListUnsubscribe?: boolean; group?: number | "all" } = {}): Promise<boolean> {
      // Mailing-list unsubscribes change list membership (api/tracking.ts), not a message's events.
      if (payload.kind === "list-unsubscribe") return false;
      const domain = await deps.store.control.getDomain(payload.domain);
      if (!domain) return false;
      const zone = deps.store.zone(domain.zone);
      const rcpt = await zone.getRecipient(payload.recipientId);
      if (!rcpt || rcpt.messageId !== payload.messageId) return false;
      const message = await zone.getMessage(rcpt.messageId);
      if (!message) return false;
      const now = deps.now();
      const group = payload.kind === "unsubscribe" ? groupOf(payload, message, opts.group) : undefined;
      const event: MessageEvent = {
        id: newId(now), type: EVENT_OF[payload.kind], messageId: message.id, recipient: rcpt.email.toLowerCase(), recipientId: rcpt.id,
        domain: domain.name, timestamp: now, ip: hit.ip, userAgent: hit.userAgent, tags: message.tags, metadata: message.metadata,
        ...(payload.kind === "click" ? { url: payload.url } : {}),
        ...(payload.kind === "unsubscribe" && opts.isListUnsubscribe ? { url: "list-unsubscribe" } : {}),
        ...(payload.kind === "unsubscribe" && !opts.isListUnsubscribe && payload.url === TAG_UNSUBSCRIBE_SCOPE ? { url: TAG_UNSUBSCRIBE_EVENT_URL } : {}),
        ...(group !== undefined ? { unsubscribeGroup: group } : {}),
      };
      if (domain.botDetection && payload.kind !== "unsubscribe") {
        const verdict = await deps.detector.classify({
          zone: domain.zone, ip: hit.ip, userAgent: hit.userAgent, action: payload.kind, method: hit.method, domain: rcpt.rcptDomain, messageId: message.id,
          recipientId: rcpt.id, linkId: payload.url, at: now, deliveredAt: rcpt.status === "delivered" ? rcpt.updatedAt : message.createdAt,
        });
        event.isBot = verdict.isBot;
        event.botReasons = verdict.reasons;
      }
      if (payload.kind === "unsubscribe") {
        await deps.recorder.record(domain.zone, { events: [event] });
        return true;
      }
      // Which first this is, decided now (unique opens and clicks are then sums that outlive the
      // events); hits of one recipient take turns, so two at once are not both the first.
      await inTurn(`${message.id}\n${event.recipient}`, async () => {
        const earlier = await zone.searchEvents({ messageId: message.id, recipient: event.recipient, types: ["opened", "clicked"], limit: 1000 });
        event.firsts = firstsOf(event, earlier);
        await deps.recorder.record(domain.zone, { events: [event] });
      });
      return true;
    },
  };
}

export type InteractionRecorder = ReturnType<typeof createInteractionRecorder>;

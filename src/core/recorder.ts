// The one writer of events. Producers (send, MTA outcomes, tracking, inbound reports, queue purge)
// hand it values; it derives the suppressions those events imply (suppression-policy.ts), writes
// outcomes, events and suppressions in one transaction, then tells the subscribers registered in
// app.ts (the scheduler, the webhook pipeline) what was recorded.
import type { MessageEvent } from "./model.ts";
import type { RecipientUpdate, Store, StoredAttachment, StoredMessage, StoredRecipient } from "./store-port.ts";
import { isSoftBounce, suppressionsFor, type SoftBouncePolicy, type SuppressionContext } from "./suppression-policy.ts";

/** What one write recorded: subscribers look at it and decide whether to wake up. */
export interface Recorded {
  zone: string;
  events: MessageEvent[];
  /** True when recipients became due (accepted mail): the scheduler looks at the queue at once. */
  queued: boolean;
}

export interface RecordSubscriber { recorded(r: Recorded): void }

/** A whole accepted send: messages, recipients (the queue), attachments and the accept-time events. */
export interface AcceptedSend {
  messages: StoredMessage[];
  recipients: StoredRecipient[];
  attachments: StoredAttachment[];
  events: MessageEvent[];
}

export function createRecorder(deps: { store: Store; now: () => number; softBounces?: SoftBouncePolicy }) {
  const subscribers: RecordSubscriber[] = [];
  const notify = (r: Recorded) => { for (const s of subscribers) s.recorded(r); };

  /** Each event's suppression context: soft bounces of its address already recorded in the window
   *  (asked of the store only when the repeated-soft-bounce policy is on), counting this batch too. */
  async function contexts(zone: string, events: MessageEvent[]): Promise<(e: MessageEvent) => SuppressionContext> {
    const policy = deps.softBounces;
    if (!policy?.limit || !events.some(isSoftBounce)) return () => ({});
    const counts = new Map<string, number>();
    for (const e of events.filter(isSoftBounce)) {
      if (counts.has(e.recipient)) continue;
      const earlier = await deps.store.zone(zone).searchEvents({ recipient: e.recipient, types: ["failed"], begin: deps.now() - policy.windowMs, limit: 1000 });
      counts.set(e.recipient, earlier.filter(isSoftBounce).length);
    }
    return (e) => {
      if (!isSoftBounce(e)) return { policy };
      const n = counts.get(e.recipient) ?? 0;
      counts.set(e.recipient, n + 1);
      return { policy, recentSoftBounces: n };
    };
  }

  return {
    /** Registers a subscriber (once, in app.ts). */
    subscribe(s: RecordSubscriber) { subscribers.push(s); },
    /** Outcome updates and events, with the suppressions they imply, in one transaction. */
    async record(zone: string, input: { updates?: RecipientUpdate[]; events: MessageEvent[] }): Promise<void> {
      const updates = input.updates ?? [];
      if (!updates.length && !input.events.length) return;
      await deps.store.zone(zone).applyOutcomes(updates, input.events, suppressionsFor(input.events, await contexts(zone, input.events)), deps.now());
      notify({ zone, events: input.events, queued: false });
    },
    /** Commits a whole send (group-committed with concurrent sends); resolved means on disk. */
    async accept(zone: string, send: AcceptedSend): Promise<void> {
      await deps.store.zone(zone).createSend({ ...send, suppressions: suppressionsFor(send.events) });
      notify({ zone, events: send.events, queued: send.recipients.some((r) => r.status === "queued") });
    },
    /**
     * Fails every waiting recipient no attempt holds (or only those in `ids`) and records the events
     * `eventsFor` makes of them, in one transaction; returns how many were purged.
     */
    async purge(zone: string, eventsFor: (rows: StoredRecipient[], messages: Map<string, StoredMessage>) => MessageEvent[], ids?: string[]): Promise<number> {
      let recorded: MessageEvent[] = [];
      const n = await deps.store.zone(zone).purgeQueue(deps.now(), (rows, messages) => {
        recorded = eventsFor(rows, messages);
        return { events: recorded, suppressions: suppressionsFor(recorded) };
      }, ids);
      if (recorded.length) notify({ zone, events: recorded, queued: false });
      return n;
    },
  };
}

export type Recorder = ReturnType<typeof createRecorder>;

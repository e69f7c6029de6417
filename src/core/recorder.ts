// The one writer of events. Producers (send, MTA outcomes, tracking, inbound reports, queue purge)
// hand it values; it derives the suppressions those events imply (suppression-policy.ts), writes
// outcomes, events and suppressions in one transaction, then tells the subscribers registered in
// app.ts (the scheduler, the webhook pipeline) what was recorded.
import type { MessageEvent } from "./model.ts";
import type { PurgeItem, RecipientUpdate, Store, StoredAttachment, StoredMessage, StoredRecipient } from "./store-port.ts";
import { createSubscribers } from "./subscribers.ts";
import { isSoftBounce, suppressionsFor, type SoftBouncePolicy, type SuppressionContext } from "./suppression-policy.ts";

/** What one write recorded: subscribers look at it and decide whether to wake up. */
export interface Recorded {
  zone: string;
  events: MessageEvent[];
  /** True when recipients became due (accepted mail): the scheduler looks at the queue at once. */
  queued: boolean;
  /** The messages of an accepted send: webhook fan-out keeps what it needs of them instead of reading them back. */
  messages?: StoredMessage[];
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
  const subscribers = createSubscribers<RecordSubscriber>();
  const notify = (r: Recorded) => subscribers.each((s) => s.recorded(r));

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
    subscribe: subscribers.subscribe,
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
      notify({ zone, events: send.events, queued: send.recipients.some((r) => r.status === "queued"), messages: send.messages });
    },
    /**
     * Fails every waiting recipient no attempt holds (or only those in `ids`) and records the events
     * `eventsFor` makes of them; returns how many were purged. The rows are read and the events made
     * before the transaction; a row an attempt claimed meanwhile is left to it, with its events.
     */
    async purge(zone: string, eventsFor: (rows: StoredRecipient[], messages: Map<string, StoredMessage>) => MessageEvent[], ids?: string[]): Promise<number> {
      const z = deps.store.zone(zone);
      const only = ids && new Set(ids);
      const rows = (await z.listQueue(Number.MAX_SAFE_INTEGER)).filter((r) => !only || only.has(r.id));
      if (!rows.length) return 0;
      const messages = new Map<string, StoredMessage>();
      for (const id of new Set(rows.map((r) => r.messageId))) {
        const m = await z.getMessage(id);
        if (m) messages.set(id, m);
      }
      const items = purgeItems(rows, eventsFor(rows, messages));
      const purged = new Set(await z.purgeQueue(deps.now(), items));
      const recorded = items.filter((i) => purged.has(i.recipientId)).flatMap((i) => i.events);
      if (recorded.length) notify({ zone, events: recorded, queued: false });
      return purged.size;
    },
  };
}

const PURGED_RESPONSE = "purged by the administrator";

/** Each row with the events that name it (by recipient id, or by message and address) and what they suppress. */
function purgeItems(rows: StoredRecipient[], events: MessageEvent[]): PurgeItem[] {
  const key = (messageId: string, email: string) => `${messageId}\n${email.toLowerCase()}`;
  const byRow = new Map<string, MessageEvent[]>(rows.map((r) => [r.id, []]));
  const byAddress = new Map(rows.map((r) => [key(r.messageId, r.email), r.id]));
  for (const e of events) {
    const id = e.recipientId && byRow.has(e.recipientId) ? e.recipientId : byAddress.get(key(e.messageId, e.recipient));
    if (id) byRow.get(id)!.push(e);
  }
  return rows.map((r) => {
    const list = byRow.get(r.id)!;
    return { recipientId: r.id, lastResponse: PURGED_RESPONSE, events: list, suppressions: suppressionsFor(list) };
  });
}

export type Recorder = ReturnType<typeof createRecorder>;

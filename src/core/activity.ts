// The read side every surface exposes: a message's recipients and events, event search with
// cursors, and stats (counts per event type and hour, bots left out).
import type { MessageEvent } from "./model.ts";
import type { EventQuery, Store, StoredMessage, StoredRecipient } from "../store/store.ts";
import { notFound } from "./errors.ts";

export function createActivityService(deps: { store: Store }) {
  async function zoneOf(domain: string) {
    const d = await deps.store.control.getDomain(domain);
    if (!d) throw notFound(`domain ${domain} not found`);
    return deps.store.zone(d.zone);
  }
  return {
    /** Events of one domain, newest first unless `ascending`. */
    async events(domain: string, q: Omit<EventQuery, "domain">): Promise<MessageEvent[]> {
      return (await zoneOf(domain)).searchEvents({ ...q, domain: domain.toLowerCase() });
    },
    /** Events across every zone (account-wide reads). */
    async allEvents(q: EventQuery): Promise<MessageEvent[]> {
      const lists = await Promise.all(deps.store.zoneNames().map((z) => deps.store.zone(z).searchEvents(q)));
      return lists.flat().sort((a, b) => (q.ascending ? a.timestamp - b.timestamp : b.timestamp - a.timestamp)).slice(0, q.limit);
    },
    async message(domain: string, id: string): Promise<{ message: StoredMessage; recipients: StoredRecipient[] } | null> {
      const zone = await zoneOf(domain);
      const message = await zone.getMessage(id);
      if (!message || message.domain !== domain.toLowerCase()) return null;
      return { message, recipients: await zone.listRecipients(id) };
    },
    /** Messages accepted for `domain` since `since` (ms): the used part of a sending limit. */
    async sendsSince(domain: string, since: number): Promise<number> {
      return (await zoneOf(domain)).countSends(domain.toLowerCase(), since);
    },
    /** Counts per event type and hour bucket in [begin, end]; domain null = every domain. */
    async counts(domain: string | null, begin: number, end: number) {
      if (domain) return (await zoneOf(domain)).countEvents({ domain: domain.toLowerCase(), begin, end });
      const lists = await Promise.all(deps.store.zoneNames().map((z) => deps.store.zone(z).countEvents({ begin, end })));
      return lists.flat();
    },
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;

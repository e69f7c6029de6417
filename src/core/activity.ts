// The read side every surface exposes: a message's recipients and events, event search with
// cursors, and stats (counts per event type and hour, bots left out).
import type { MessageEvent } from "./model.ts";
import type { EventQuery, OutboxItem, SendQuery, Store, StoredMessage, StoredRecipient, StoredSend } from "./store-port.ts";
import { notFound } from "./errors.ts";
import { readStatFacts, type StatFactQuery } from "./stats/facts.ts";

export function createActivityService(deps: { store: Store }) {
  async function zoneOf(domain: string) {
    const d = await deps.store.control.getDomain(domain);
    if (!d) throw notFound(`domain ${domain} not found`);
    return deps.store.zone(d.zone);
  }
  const service = {
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
    /** The webhook posts made for a message's events, with their state and last answer. */
    async webhookPosts(domain: string, messageId: string): Promise<OutboxItem[]> {
      return (await zoneOf(domain)).webhookPostsFor(domain.toLowerCase(), messageId, 200);
    },
    /** Sends (transmissions) of `domain`, newest first. */
    async sends(domain: string, q: SendQuery): Promise<StoredSend[]> {
      return (await zoneOf(domain)).listSends(domain.toLowerCase(), q);
    },
    /**
     * One whole send with every message and its recipients, by send id, or by the id of one of its
     * messages (what postern answered as a transmission id before sends had ids of their own).
     */
    async send(domain: string, id: string): Promise<{ id: string; messages: { message: StoredMessage; recipients: StoredRecipient[] }[] } | null> {
      const zone = await zoneOf(domain);
      const name = domain.toLowerCase();
      let messages = (await zone.listMessagesBySend(id)).filter((m) => m.domain === name);
      if (!messages.length) {
        const one = await zone.getMessage(id);
        if (one?.domain === name) messages = (await zone.listMessagesBySend(one.sendId)).filter((m) => m.domain === name);
      }
      if (!messages.length) return null;
      return { id: messages[0]!.sendId, messages: await Promise.all(messages.map(async (message) => ({ message, recipients: await zone.listRecipients(message.id) }))) };
    },
    /** The first of `domains` that holds send `id` (or a message of it), with that send. */
    async findSend(domains: string[], id: string) {
      for (const d of domains) {
        const found = await service.send(d, id);
        if (found) return found;
      }
      return null;
    },
    /** Sends of `domains` scheduled after `now` (not yet due), newest first, at most `limit` in all. */
    async scheduledSends(domains: string[], q: Omit<SendQuery, "scheduledAfter" | "limit">, now: number, limit: number): Promise<StoredSend[]> {
      const sends = (await Promise.all(domains.map((d) => service.sends(d, { ...q, scheduledAfter: now, limit })))).flat();
      return sends.sort((a, b) => b.createdAt - a.createdAt).slice(0, limit);
    },
    /** The tags of `domain`'s events, with descriptions. */
    async tags(domain: string) {
      return (await zoneOf(domain)).listTags(domain.toLowerCase());
    },
    async putTagInfo(domain: string, tag: string, change: { description?: string; deletedAt?: number }) {
      return (await zoneOf(domain)).putTagInfo(domain.toLowerCase(), tag, change);
    },
    /** Messages accepted for `domain` since `since` (ms): the used part of a sending limit. */
    async sendsSince(domain: string, since: number): Promise<number> {
      return (await zoneOf(domain)).countSends(domain.toLowerCase(), since);
    },
    /** What the vendor stats count (core/stats/facts.ts): live events and retention's rollups; domain null = every domain. */
    async statFacts(domain: string | null, q: StatFactQuery) {
      if (domain) return readStatFacts([await zoneOf(domain)], domain.toLowerCase(), q);
      return readStatFacts(deps.store.zoneNames().map((z) => deps.store.zone(z)), undefined, q);
    },
    /** Counts per event type and hour bucket in [begin, end]; domain null = every domain; `tag`: only events carrying it. */
    async counts(domain: string | null, begin: number, end: number, tag?: string) {
      if (domain) return (await zoneOf(domain)).countEvents({ domain: domain.toLowerCase(), begin, end, ...(tag !== undefined && { tag }) });
      const lists = await Promise.all(deps.store.zoneNames().map((z) => deps.store.zone(z).countEvents({ begin, end })));
      return lists.flat();
    },
    /**
     * Counts over a tenant's domains in the zones served here (core/permissions.ts readTenant;
     * undefined: every domain): an account-wide total never counts another tenant's mail.
     */
    async tenantCounts(tenant: number | undefined, begin: number, end: number) {
      if (tenant === undefined) return service.counts(null, begin, end);
      const served = new Set(deps.store.zoneNames());
      const mine = (await deps.store.control.listDomains(tenant)).filter((d) => served.has(d.zone));
      return (await Promise.all(mine.map((d) => deps.store.zone(d.zone).countEvents({ domain: d.name, begin, end })))).flat();
    },
  };
  return service;
}

export type ActivityService = ReturnType<typeof createActivityService>;

/** A recipient still waiting for its scheduled time: queued, never tried, due later than `now`. */
export const isScheduled = (r: Pick<StoredRecipient, "status" | "attempts" | "nextAttemptAt">, now: number) =>
  r.status === "queued" && r.attempts === 0 && r.nextAttemptAt > now;

// Fan-out: reads the events recorded since the last run (a cursor in each zone), picks each
// event's targets and writes one outbox item per POST to make (batches of the target format's
// size) together with the new cursor.
import type { MessageEvent } from "../core/model.ts";
import type { OutboxItem, Store, StoredMessage, WebhookTarget, ZoneStore } from "../core/store-port.ts";
import { newId } from "../core/ids.ts";
import { createRecentCache } from "../core/recent-cache.ts";
import type { EventContext, MessageSummary } from "./context.ts";
import type { WebhookFormat } from "./format.ts";
import { callbackFormat, formatNamed } from "./registry.ts";
import { coversEveryTenant, isSubscribed } from "./targets.ts";

const CURSOR = "webhooks";
/** Events per batch: one batch is one turn of the event loop (reading, parsing, routing, the cursor's
 *  write), and a turn that runs long holds every HTTP answer and every SMTP reply behind it. */
const READ_BATCH = 100;
/** Batches follow each other within one turn of the event loop for this long (ms) before yielding:
 *  well under the 25 ms of loop lag the delivery turns allow callers (mta/delivery/turns.ts). */
const TURN_BUDGET_MS = 5;

interface Route { url: string; format: WebhookFormat; targetId: string | null }
interface MessageInfo { summary: MessageSummary | null; callback: string | null; source: string }

/** Messages remembered: about 300 bytes each; enough for the mail accepted in the last seconds. */
const SUMMARY_CACHE_SIZE = 10_000;

const infoOf = (m: StoredMessage): MessageInfo => ({ summary: { id: m.id, messageIdHeader: m.messageIdHeader, from: m.from, subject: m.subject,
  size: m.size, source: m.source, isTest: m.isTest, createdAt: m.createdAt, sendId: m.sendId, campaignId: m.extra?.campaignId,
  asmGroupId: m.extra?.asmGroupId, ipPool: m.extra?.ipPool }, callback: m.callbackUrl, source: m.source });

export function createFanout(deps: { store: Store; now: () => number }) {
  // Not a Map evicting its oldest key: that walks deleted entries in Bun (core/recent-cache.ts).
  const summaries = createRecentCache<string, MessageInfo>(SUMMARY_CACHE_SIZE);
  const remember = (id: string, info: MessageInfo) => summaries.set(id, info);
  /** The current batch's messages without a callback whose domain has no target: no route, nothing read. */
  const untargeted = new Set<string>();
  const batchTargets = new Map<string, Promise<{ targets: WebhookTarget[]; tenant: number }>>();

  // Every message yields several events (accepted, delivered...): read each message once, and not
  // at all when this node accepted it (the recorder hands the accepted messages over).
  async function summary(zone: ZoneStore, id: string): Promise<MessageInfo> {
    const hit = summaries.get(id);
    if (hit) return hit;
    const m: StoredMessage | null = await zone.getMessageHead(id);
    const info: MessageInfo = m ? infoOf(m) : { summary: null, callback: null, source: "" };
    remember(id, info);
    return info;
  }

  /**
   * The batch's messages the fan-out must read, read in one go: those whose domain has targets, and
   * those with a callback URL. An event no target wants needs only the latter question answered,
   * which reads no head: a million scheduled were a million heads read behind the accept, into the
   * live run (#41). (One by one, each head cost about 14 µs an event on the loop.)
   */
  async function readWanted(zone: ZoneStore, events: MessageEvent[]) {
    const wanted = new Set<string>();
    const unsure = new Set<string>();
    for (const e of events) {
      if (summaries.get(e.messageId) !== undefined) continue;
      ((await domainTargets(e.domain)).targets.length ? wanted : unsure).add(e.messageId);
    }
    const calling = new Set((await zone.callbacksOf([...unsure])).map((c) => c.id));
    for (const id of unsure) if (calling.has(id)) wanted.add(id); else untargeted.add(id);
    // A single message is read by summary() when its route is asked for.
    if (wanted.size < 2) return;
    for (const m of await zone.getMessageHeads([...wanted])) remember(m.id, infoOf(m));
  }

  /** The domain's targets, read once per batch (the batch's events and their routes ask for the same domains). */
  function domainTargets(domain: string): Promise<{ targets: WebhookTarget[]; tenant: number }> {
    let got = batchTargets.get(domain);
    if (!got) batchTargets.set(domain, (got = readTargets(domain)));
    return got;
  }

  /** The domain's targets (its own, its tenant's account-wide ones, and the primary's that cover every tenant) and its tenant. */
  async function readTargets(domain: string): Promise<{ targets: WebhookTarget[]; tenant: number }> {
    // The reads are the store's cached ones (core/domain-read.ts): a target added by any process counts at once.
    const d = await deps.store.control.getDomain(domain);
    if (!d) return { targets: [], tenant: 0 };
    const targets = await deps.store.control.listWebhooks(d.id);
    const tenant = d.tenantId ?? 0;
    if (tenant === 0) return { targets, tenant };
    const everyTenant = (await deps.store.control.listWebhooks(null)).filter(coversEveryTenant);
    return { targets: everyTenant.length ? [...targets, ...everyTenant] : targets, tenant };
  }

  async function routesFor(zone: ZoneStore, e: MessageEvent): Promise<{ routes: Route[]; ctx: EventContext }> {
    if (untargeted.has(e.messageId)) return { routes: [], ctx: { event: e, message: null } };
    const info = await summary(zone, e.messageId);
    const { targets: all, tenant } = await domainTargets(e.domain);
    const ctx: EventContext = { event: e, message: info.summary, ...(tenant ? { tenant } : {}) };
    if (info.callback) return { routes: [{ url: info.callback, format: callbackFormat(info.source), targetId: null }], ctx };
    const targets = all.filter((t) => isSubscribed(t, e));
    return { routes: targets.map((t) => ({ url: t.url, format: formatNamed(t.format), targetId: t.id })), ctx };
  }

  /** Fans out one batch of new events in `zone`; returns how many events were read and items queued. */
  async function runZone(zone: ZoneStore): Promise<{ events: number; queued: number }> {
    const cursor = await zone.cursor(CURSOR);
    const rows = await zone.eventsAfter(cursor, READ_BATCH);
    if (!rows.length) return { events: 0, queued: 0 };
    const groups = new Map<string, { route: Route; domain: string; events: EventContext[] }>();
    const items: OutboxItem[] = [];
    const now = deps.now();
    const push = (route: Route, domain: string, events: EventContext[]) => items.push({ id: newId(now), url: route.url, format: route.format.name,
      targetId: route.targetId, domain, payload: JSON.stringify(events), attempts: 0, nextAttemptAt: now, status: "pending", lastError: null, createdAt: now });
    untargeted.clear();
    batchTargets.clear();
    await readWanted(zone, rows.map((r) => r.event));
    for (const { event } of rows) {
      const { routes, ctx } = await routesFor(zone, event);
      for (const route of routes) {
        if (route.format.batchSize <= 1) { push(route, event.domain, [ctx]); continue; }
        const key = `${route.targetId ?? ""}|${route.url}|${route.format.name}|${event.domain}`;
        const g = groups.get(key) ?? { route, domain: event.domain, events: [] };
        g.events.push(ctx);
        groups.set(key, g);
        if (g.events.length >= route.format.batchSize) { push(route, g.domain, g.events); groups.delete(key); }
      }
    }
    for (const g of groups.values()) push(g.route, g.domain, g.events);
    // Another node fanned these events out first: its items stand, these are dropped.
    const written = await zone.enqueueWebhooks(items, { name: CURSOR, from: cursor, to: rows[rows.length - 1]!.position });
    return written ? { events: rows.length, queued: items.length } : { events: 0, queued: 0 };
  }

  return {
    /** Fans out everything new in every zone; returns the number of events handled and of outbox items queued. */
    async run(): Promise<{ events: number; queued: number }> {
      const n = { events: 0, queued: 0 };
      let turnStart = performance.now();
      for (const name of deps.store.zoneNames()) {
        for (let got = await runZone(deps.store.zone(name)); got.events > 0; got = await runZone(deps.store.zone(name))) {
          n.events += got.events;
          n.queued += got.queued;
          // The store's calls resolve at once (SQLite is synchronous): a backlog is fanned out a
          // turn's budget at a time. One batch a turn fell behind an accept (each turn of the loop
          // accepts many requests): a million scheduled left the fan-out 400,000 events behind,
          // read while the live mail after them was delivered (#41).
          if (performance.now() - turnStart >= TURN_BUDGET_MS) {
            await new Promise<void>((resolve) => setImmediate(resolve));
            turnStart = performance.now();
          }
        }
      }
      return n;
    },
    /**
     * Messages just accepted: their events are fanned out without reading them back. Only those
     * something will be posted for (a callback URL, or targets for their domain): 10,000 summaries
     * nobody reads held 7 MB of the server's peak RSS at full speed (#41). One added later than its
     * target is read back when its events come.
     */
    async remember(messages: StoredMessage[]) {
      const wanted = new Map<string, Promise<boolean>>();
      const domainWanted = (domain: string) => {
        let w = wanted.get(domain);
        if (!w) wanted.set(domain, (w = readTargets(domain).then((t) => t.targets.length > 0, () => true)));
        return w;
      };
      for (const m of messages) if (m.callbackUrl || await domainWanted(m.domain)) remember(m.id, infoOf(m));
    },
    /** Whether the message's summary is held (tests). */
    holds: (id: string) => summaries.get(id) !== undefined,
  };
}

export type Fanout = ReturnType<typeof createFanout>;

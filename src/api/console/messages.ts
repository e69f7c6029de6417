// Console: one search box over the event log (a recipient address, a message id or a tag) and a
// message page with every event in order: accepted, deferrals with the remote reply, delivered or
// failed with the bounce class, opens and clicks with their bot verdicts. core/activity.ts reads.
import { Elysia } from "elysia";
import type { MessageEvent, Principal } from "../../core/model.ts";
import type { EventQuery, OutboxItem } from "../../core/store-port.ts";
import { notFound } from "../../core/errors.ts";
import { bounceClass } from "../../webhooks/formats/sparkpost-event.ts";
import { reportedCode, reportedDescription, reportedReason } from "../../webhooks/formats/reported.ts";
import type { ConsoleDeps } from "./deps.ts";
import { principalOf } from "../context.ts";
import { seesDomain } from "../../core/permissions.ts";
import { permissions } from "../permission.ts";
import { domainFor } from "./policy.ts";
import { redactUrl } from "../../net/redact.ts";

/** The event types of `messageId` a stored payload carries. */
function eventTypes(payload: string, messageId: string): string[] {
  try {
    const items = JSON.parse(payload) as { event?: { type?: string; messageId?: string } }[];
    return items.filter((i) => i.event?.messageId === messageId).map((i) => String(i.event?.type));
  } catch { return []; }
}

const SEARCH_LIMIT = 500;
const LIFECYCLE = new Set(["accepted", "deferred", "delivered", "failed", "rejected"]);

/** What the box holds, as event queries: an address, a Message-ID header (<id@host>), or an id or tag. */
export function queriesFor(text: string): Omit<EventQuery, "limit">[] {
  const q = text.trim();
  if (!q) return [];
  if (q.startsWith("<")) return [{ messageId: q.replace(/^<|>$/g, "").split("@")[0]! }];
  if (q.includes("@")) return [{ recipient: q.toLowerCase() }];
  return [{ messageId: q }, { tag: q }];
}

/** One row per message and recipient: its latest delivery state and how often it was opened and clicked. */
export function summarize(events: MessageEvent[]) {
  const rows = new Map<string, { messageId: string; domain: string; recipient: string; status: string; lastAt: number; opens: number; clicks: number; tags: string[] }>();
  for (const e of [...events].sort((a, b) => a.timestamp - b.timestamp)) {
    const key = `${e.messageId} ${e.recipient}`;
    const row = rows.get(key) ?? { messageId: e.messageId, domain: e.domain, recipient: e.recipient, status: e.type, lastAt: e.timestamp, opens: 0, clicks: 0, tags: e.tags };
    if (LIFECYCLE.has(e.type)) row.status = e.type;
    if (e.type === "opened" && !e.isBot) row.opens++;
    if (e.type === "clicked" && !e.isBot) row.clicks++;
    row.lastAt = Math.max(row.lastAt, e.timestamp);
    rows.set(key, row);
  }
  return [...rows.values()].sort((a, b) => b.lastAt - a.lastAt);
}

export const eventView = (e: MessageEvent) => ({
  id: e.id, type: e.type, timestamp: e.timestamp, recipient: e.recipient, severity: e.severity, code: reportedCode(e), enhancedCode: e.enhancedCode,
  description: reportedDescription(e), mx: e.mx, tls: e.tls, attempt: e.attempt, sendingIp: e.sendingIp, ipPool: e.ipPool,
  reason: reportedReason(e), url: e.url, ip: e.ip, userAgent: e.userAgent,
  isBot: e.isBot, botReasons: e.botReasons,
  bounceClass: e.type === "failed" ? `${e.severity === "temporary" ? "soft" : "hard"} (class ${bounceClass(e)})` : undefined,
});

export function messageRoutes(deps: ConsoleDeps) {
  async function search(p: Principal, q: Omit<EventQuery, "limit">) {
    const query = { ...q, limit: SEARCH_LIMIT };
    // A tenant's key (or a user of one tenant, once enforced) sees its tenant's events only.
    return p.kind === "domain" ? deps.activity.events(p.domain!.name, query) : (await deps.activity.allEvents(query)).filter((e) => seesDomain(p, e.domain));
  }
  /**
   * The posts to targets the caller sees: the message's own callback, the domain's and its tenant's
   * account-wide targets; not another tenant's (the primary's SparkPost webhook of every tenant),
   * unless the caller reads every tenant.
   */
  async function visiblePosts(p: Principal, domainId: number, posts: OutboxItem[]): Promise<OutboxItem[]> {
    if (p.readAll) return posts;
    const mine = new Set((await deps.webhooks.list(domainId)).map((w) => w.id));
    return posts.filter((w) => w.targetId === null || mine.has(w.targetId));
  }
  return new Elysia({ prefix: "/ui/api" }).use(permissions)
    .get("/messages", async ({ request, query }) => {
      const p = principalOf(request);
      const text = typeof query.q === "string" ? query.q : "";
      const found = (await Promise.all(queriesFor(text).map((q) => search(p, q)))).flat();
      return summarize([...new Map(found.map((e) => [e.id, e])).values()]);
    }, { permission: { right: "events.read" } })
    .get("/messages/:domain/:id", async ({ request, params }) => {
      const { domain, principal } = await domainFor(request, deps.domains, params.domain);
      const found = await deps.activity.message(domain.name, params.id);
      if (!found) throw notFound(`message ${params.id} not found`);
      const events = await deps.activity.events(domain.name, { messageId: params.id, ascending: true, limit: 1000 });
      const { message, recipients } = found;
      return {
        id: message.id, domain: message.domain, messageIdHeader: message.messageIdHeader, from: message.from, subject: message.subject,
        tags: message.tags, size: message.size, createdAt: message.createdAt, source: message.source,
        recipients: recipients.map((r) => ({ email: r.email, status: r.status, attempts: r.attempts, lastCode: r.lastCode, lastResponse: r.lastResponse, mx: r.mx,
          sourceIp: r.sourceIp ?? null, ipPool: r.ipPool ?? null })),
        events: events.map(eventView),
        // Webhook posts of these events and the target's answers (URLs without credentials).
        webhooks: (await visiblePosts(principal, domain.id, await deps.activity.webhookPosts(domain.name, message.id))).map((w) => ({
          url: redactUrl(w.url), format: w.format, status: w.status, attempts: w.attempts, lastError: w.lastError, createdAt: w.createdAt,
          answer: w.status === "delivered" ? "2xx" : w.lastError ?? (w.attempts ? "" : "not sent yet"),
          events: eventTypes(w.payload, message.id),
        })),
      };
    }, { permission: { right: "events.read", domain: "domain" } });
}

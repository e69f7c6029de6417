// Posts account notices (core/notice.ts) to the native webhooks that asked for their type: the
// account-wide ones (a tenant's: of its own domains only), and domains' own: a listed host's domain, or for an address every
// domain of the primary's (an egress address is the installation's; another tenant sees none: docs/tenants.md). Each post is an outbox item
// of the notice format, retried like every webhook and kept across a restart. It hears the
// doctor's change feed (registered in app.ts): a blocklist entry turning listed or clear.
import type { Domain } from "../core/model.ts";
import { newId } from "../core/ids.ts";
import { blocklistNotice, type Notice } from "../core/notice.ts";
import type { Store, WebhookTarget } from "../core/store-port.ts";
import { createSubscribers, type OutboxSubscriber } from "../core/subscribers.ts";
import { FORMAT, isMailgunShaped } from "./registry.ts";
import { egressTenant } from "../core/permissions.ts";
import { domainTenant, PRIMARY_TENANT } from "../core/tenants.ts";

/** What the poster reads of a doctor change (src/doctor/service.ts DoctorChange). */
type Change = { kind: "check" } | { kind: "blocklist"; subject: string; to: "listed" | "clear"; at: number; zone: string; entryKind: "ip" | "domain"; answer: string; domain: string | null };

/** A target wants a notice type when it is a native (Mailgun-shaped) webhook of that type. */
export const wantsNotice = (t: WebhookTarget, type: string) =>
  isMailgunShaped(t.format) && (t.extra.mailgunId ?? t.extra.webhookType ?? t.events[0]) === type;

/**
 * An account-wide target hears what a principal of its tenant sees (core/permissions.ts): the
 * primary's (the operator's) every domain and address; another tenant's, its own domains' only.
 */
function accountHears(t: WebhookTarget, domain: Domain | null): boolean {
  const tenant = egressTenant({ tenant: t.tenantId ?? undefined });
  return tenant === undefined || (domain !== null && domainTenant(domain) === tenant);
}

export function createNoticePoster(deps: { store: Store; now: () => number; getDomain(name: string): Promise<Domain | null> }) {
  const subscribers = createSubscribers<OutboxSubscriber>();

  async function post(n: Notice): Promise<number> {
    const domain = n.domain ? await deps.getDomain(n.domain) : null;
    const forAddress = !n.domain;
    // An address's notice reaches the domains of the primary (the operator's) only: no other tenant sees its egress.
    const operators = forAddress ? new Set((await deps.store.control.listDomains(PRIMARY_TENANT)).map((d) => d.id)) : new Set<number>();
    const targets = (await deps.store.control.listWebhooks(null)).filter((t) => wantsNotice(t, n.event)
      && (t.domainId === null ? accountHears(t, domain) : forAddress ? operators.has(t.domainId) : domain !== null && t.domainId === domain.id));
    if (!targets.length) return 0;
    // Outbox items live in a zone: the domain's when it is served here, else the first local one.
    const zones = deps.store.zoneNames();
    const zone = domain && zones.includes(domain.zone) ? domain.zone : zones[0]!;
    const now = deps.now();
    // A domain target's item carries its domain (its signing key); an address's notice reaches domains by id.
    const names = forAddress ? new Map((await deps.store.control.listDomains()).map((d) => [d.id, d.name])) : new Map<number, string>();
    const domainOf = (t: WebhookTarget) => (t.domainId === null ? "" : domain?.name ?? names.get(t.domainId) ?? "");
    await deps.store.zone(zone).enqueueOutbox(targets.map((t) => ({ id: newId(now), url: t.url, format: FORMAT.notice, targetId: t.id,
      domain: domainOf(t), payload: JSON.stringify([n]), attempts: 0, nextAttemptAt: now, status: "pending" as const,
      lastError: null, createdAt: now })));
    subscribers.each((s) => s.outboxQueued());
    return targets.length;
  }

  return {
    /** Registers who hears of posts queued (the webhook pipeline). */
    subscribe: subscribers.subscribe,
    post,
    /** The doctor's feed: listings and delistings become notices. */
    async doctorChanged(c: Change): Promise<void> {
      if (c.kind !== "blocklist") return;
      await post(blocklistNotice(c, newId(c.at)));
    },
  };
}

export type NoticePoster = ReturnType<typeof createNoticePoster>;

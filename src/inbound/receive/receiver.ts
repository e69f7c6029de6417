// Mail for the account's receiving domains: which recipients the listener accepts, and what a
// received message becomes. The message (with trace headers) and every post it owes are written
// in one transaction of the owning domain's zone before the 250; forwards to addresses are then
// queued through the normal send pipeline.
import { AppError } from "../../core/errors.ts";
import { newId, newSecret } from "../../core/ids.ts";
import type { Domain } from "../../core/model.ts";
import { routeRecipient } from "../../core/inbound/routes.ts";
import type { InboundMessageStore, InboundPostItem, InboundRuleStore, ReceivedEnvelope } from "../../core/inbound/model.ts";
import type { Resolver } from "../../dns.ts";
import { createSubscribers, type OutboxSubscriber } from "../../core/subscribers.ts";
import { checkAuthentication } from "./authenticate.ts";
import { headerBlock } from "../../webhooks/inbound/received.ts";

export const STORE_DAYS = 3;

export interface ReceiverDeps {
  rules: InboundRuleStore;
  owningDomain(hostname: string): Promise<Domain | null>;
  zone(name: string): InboundMessageStore;
  resolver: Resolver;
  hostname: string;
  now(): number;
  /** Queues a copy to an address (Mailgun forward("addr")); resolves when durable. */
  forward(domain: Domain, raw: Uint8Array, recipient: string, to: string): Promise<void>;
}

export interface Delivery { mailFrom: string; rcptTo: string[]; remoteIp: string; heloName: string }

const hostOf = (address: string) => address.slice(address.lastIndexOf("@") + 1).toLowerCase();

export function createReceiver(deps: ReceiverDeps) {
  // The webhook pipeline listens: posts were written to the outbox.
  const subscribers = createSubscribers<OutboxSubscriber>();
  /** The active domain that receives for `address`, or null (the listener then refuses it). */
  async function receivingDomain(address: string): Promise<Domain | null> {
    const host = hostOf(address);
    const d = await deps.owningDomain(host);
    if (!d || d.state !== "active") return null;
    if (d.inbound && d.name === host) return d;
    const configured = (await deps.rules.getRule("sendgrid-parse", host)) ?? (await deps.rules.getRule("sparkpost-inbound-domain", host));
    return configured ? d : null;
  }

  async function postsFor(domain: Domain, rcpts: string[], raw: Uint8Array): Promise<{ posts: InboundPostItem[]; forwards: [string, string][] }> {
    const headers = headerBlock(raw);
    const header = (name: string) => headers.filter(([k]) => k.toLowerCase() === name).map(([, v]) => v.slice(0, 2000));
    const posts: InboundPostItem[] = [];
    const forwards: [string, string][] = [];
    const id = () => newId(deps.now());
    const routes = domain.inbound ? (await deps.rules.listRules("mailgun-route")).map((r) => ({ ...r.spec, id: r.id, createdAt: r.createdAt })) : [];
    const parseHosts = new Set<string>();
    for (const rcpt of rcpts) {
      const host = hostOf(rcpt);
      if (domain.inbound && host === domain.name) {
        for (const a of routeRecipient(routes, rcpt.slice(0, 320), header)) {
          if (a.kind === "forward" && a.destination.includes("@") && !/^https?:/i.test(a.destination)) forwards.push([rcpt, a.destination]);
          else if (a.kind === "forward") posts.push({ id: id(), format: "mailgun-route", url: a.destination, recipient: rcpt, ruleId: a.routeId, options: {} });
          else if (a.notify) posts.push({ id: id(), format: "mailgun-store", url: a.notify, recipient: rcpt, ruleId: a.routeId, options: {} });
        }
      }
      const parse = await deps.rules.getRule("sendgrid-parse", host);
      if (parse && !parseHosts.has(host)) {
        parseHosts.add(host);
        posts.push({ id: id(), format: "sendgrid-parse", url: parse.spec.url, recipient: rcpt, ruleId: host,
          options: { hostname: host, sendRaw: parse.spec.sendRaw, spamCheck: parse.spec.spamCheck } });
      }
      if (await deps.rules.getRule("sparkpost-inbound-domain", host)) {
        for (const hook of (await deps.rules.listRules("sparkpost-relay-webhook")).filter((h) => h.spec.matchDomain === host)) {
          posts.push({ id: id(), format: "sparkpost-relay", url: hook.spec.target, recipient: rcpt, ruleId: hook.id,
            options: { name: hook.spec.name, authToken: hook.spec.authToken, matchDomain: hook.spec.matchDomain } });
        }
      }
    }
    return { posts, forwards };
  }

  return {
    receivingDomain,
    subscribe: subscribers.subscribe,

    /** Stores one copy per owning domain with the posts it owes; returns the stored ids. */
    async receive(raw: Uint8Array, delivery: Delivery): Promise<string[]> {
      const byDomain = new Map<number, { domain: Domain; rcpts: string[] }>();
      for (const rcpt of delivery.rcptTo) {
        const d = await receivingDomain(rcpt);
        if (!d) throw new AppError("forbidden", `${rcpt} does not receive mail here`);
        byDomain.set(d.id, { domain: d, rcpts: [...(byDomain.get(d.id)?.rcpts ?? []), rcpt] });
      }
      const now = deps.now();
      const { auth, trace } = await checkAuthentication(raw, { ip: delivery.remoteIp, helo: delivery.heloName, mailFrom: delivery.mailFrom,
        hostname: deps.hostname, resolver: deps.resolver, now });
      const stored = new Uint8Array(Buffer.concat([Buffer.from(trace), raw]));
      const ids: string[] = [];
      for (const { domain, rcpts } of byDomain.values()) {
        const envelope: ReceivedEnvelope = { id: newId(now), domain: domain.name, mailFrom: delivery.mailFrom, rcptTo: rcpts,
          remoteIp: delivery.remoteIp, heloName: delivery.heloName, receivedAt: now, auth };
        const storageKey = newSecret(20);
        const { posts, forwards } = await postsFor(domain, rcpts, stored);
        await deps.zone(domain.zone).storeInbound({ envelope, raw: stored, storageKey, expiresAt: now + STORE_DAYS * 86_400_000 }, posts, now);
        for (const [rcpt, to] of forwards) await deps.forward(domain, stored, rcpt, to);
        ids.push(envelope.id);
      }
      subscribers.each((s) => s.outboxQueued());
      return ids;
    },
  };
}

export type Receiver = ReturnType<typeof createReceiver>;

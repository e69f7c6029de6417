// Mail for the account's receiving domains: which recipients the listener accepts, and what a
// received message becomes. The body streams into the owning domains' zones while the client
// sends (body-writer.ts) and through mailauth; at the end of DATA the message row (trace headers,
// envelope, authentication results) and every post it owes are written in one transaction before
// the 250; forwards to addresses are then queued through the normal send pipeline.
import { AppError } from "../../core/errors.ts";
import { newId, newSecret } from "../../core/ids.ts";
import type { Domain } from "../../core/model.ts";
import { routerFor } from "../../core/inbound/routes.ts";
import type { InboundMessageStore, InboundPostItem, InboundRuleStore, ReceivedEnvelope } from "../../core/inbound/model.ts";
import type { Resolver } from "../../dns.ts";
import { createSubscribers, type OutboxSubscriber } from "../../core/subscribers.ts";
import { startAuthentication } from "./authenticate.ts";
import { createBodyWriter } from "./body-writer.ts";
import { FORMAT } from "../../webhooks/registry.ts";

export const STORE_DAYS = 3;
/** "Forever" for a received message when [retention] inbound is "0". */
const NEVER = Number.MAX_SAFE_INTEGER;

export interface ReceiverDeps {
  rules: InboundRuleStore;
  owningDomain(hostname: string): Promise<Domain | null>;
  zone(name: string): InboundMessageStore;
  resolver: Resolver;
  hostname: string;
  now(): number;
  /** How long received mail is kept ([retention] inbound; 0: forever); default STORE_DAYS. */
  keepMs?: number;
  /** Queues a copy to an address (Mailgun forward("addr")); resolves when durable. */
  forward(domain: Domain, raw: Uint8Array, recipient: string, to: string): Promise<void>;
}

export interface Delivery { mailFrom: string; rcptTo: string[]; remoteIp: string; heloName: string }

/** One message being received: pieces go in as they arrive; finish() commits, abort() drops. */
export interface InboundSink {
  write(chunk: Uint8Array): Promise<void>;
  /** Commits the message and its posts (durable when it resolves); returns the stored ids. */
  finish(): Promise<string[]>;
  abort(): Promise<void>;
}

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
    const configured = (await deps.rules.getRule("parse-setting", host)) ?? (await deps.rules.getRule("inbound-domain", host));
    return configured ? d : null;
  }

  async function postsFor(domain: Domain, rcpts: string[], headers: [string, string][]): Promise<{ posts: InboundPostItem[]; forwards: [string, string][] }> {
    const header = (name: string) => headers.filter(([k]) => k.toLowerCase() === name).map(([, v]) => v.slice(0, 2000));
    const posts: InboundPostItem[] = [];
    const forwards: [string, string][] = [];
    const id = () => newId(deps.now());
    const routes = domain.inbound ? (await deps.rules.listRules("route", domain.tenantId ?? 0)).map((r) => ({ ...r.spec, id: r.id, createdAt: r.createdAt })) : [];
    const route = routerFor(routes, header);
    const parseHosts = new Set<string>();
    for (const rcpt of rcpts) {
      const host = hostOf(rcpt);
      if (domain.inbound && host === domain.name) {
        for (const a of route(rcpt.slice(0, 320))) {
          if (a.kind === "forward" && a.destination.includes("@") && !/^https?:/i.test(a.destination)) forwards.push([rcpt, a.destination]);
          else if (a.kind === "forward") posts.push({ id: id(), format: FORMAT.mailgunRoute, url: a.destination, recipient: rcpt, ruleId: a.routeId, options: {} });
          else if (a.notify) posts.push({ id: id(), format: FORMAT.mailgunStore, url: a.notify, recipient: rcpt, ruleId: a.routeId, options: {} });
        }
      }
      const parse = await deps.rules.getRule("parse-setting", host);
      if (parse && !parseHosts.has(host)) {
        parseHosts.add(host);
        posts.push({ id: id(), format: FORMAT.sendgridParse, url: parse.spec.url, recipient: rcpt, ruleId: host,
          options: { hostname: host, sendRaw: parse.spec.sendRaw, spamCheck: parse.spec.spamCheck } });
      }
      if (await deps.rules.getRule("inbound-domain", host)) {
        for (const hook of (await deps.rules.listRules("relay-webhook")).filter((h) => h.spec.matchDomain === host)) {
          posts.push({ id: id(), format: FORMAT.sparkpostRelay, url: hook.spec.target, recipient: rcpt, ruleId: hook.id,
            options: { name: hook.spec.name, authToken: hook.spec.authToken, matchDomain: hook.spec.matchDomain } });
        }
      }
    }
    return { posts, forwards };
  }

  interface Received { bodyId: string; trace: Uint8Array; headers: [string, string][]; auth: ReceivedEnvelope["auth"]; now: number }

  /** One message row per owning domain, naming the streamed body, with the posts it owes; then the forwards. */
  async function commit(targets: { domain: Domain; rcpts: string[] }[], delivery: Delivery, r: Received, ids: string[]): Promise<void> {
    for (const { domain, rcpts } of targets) {
      const envelope: ReceivedEnvelope = { id: newId(r.now), domain: domain.name, mailFrom: delivery.mailFrom, rcptTo: rcpts,
        remoteIp: delivery.remoteIp, heloName: delivery.heloName, receivedAt: r.now, auth: r.auth };
      const { posts, forwards } = await postsFor(domain, rcpts, r.headers);
      const zone = deps.zone(domain.zone);
      await zone.storeInbound({ envelope, trace: r.trace, bodyId: r.bodyId, storageKey: newSecret(20), expiresAt: expiryOf(r.now, deps.keepMs) }, posts, r.now);
      ids.push(envelope.id);
      if (forwards.length) {
        // Only a copy to an address needs the whole message at once: it is read back from the store.
        const stored = await zone.getInbound(envelope.id);
        for (const [rcpt, to] of forwards) await deps.forward(domain, stored!.raw, rcpt, to);
      }
    }
  }

  const api = {
    receivingDomain,
    subscribe: subscribers.subscribe,

    /** Opens a message for `delivery`: refused (forbidden) when a recipient does not receive here. */
    async open(delivery: Delivery): Promise<InboundSink> {
      const byDomain = new Map<number, { domain: Domain; rcpts: string[] }>();
      for (const rcpt of delivery.rcptTo) {
        const d = await receivingDomain(rcpt);
        if (!d) throw new AppError("forbidden", `${rcpt} does not receive mail here`);
        byDomain.set(d.id, { domain: d, rcpts: [...(byDomain.get(d.id)?.rcpts ?? []), rcpt] });
      }
      const now = deps.now();
      const zones = [...new Set([...byDomain.values()].map((v) => v.domain.zone))];
      const body = createBodyWriter(zones.map((z) => deps.zone(z)), newId(now), deps.now);
      const check = startAuthentication({ ip: delivery.remoteIp, helo: delivery.heloName, mailFrom: delivery.mailFrom,
        hostname: deps.hostname, resolver: deps.resolver, now });
      return {
        async write(chunk) { await check.write(chunk); await body.write(chunk); },
        abort: async () => { check.abort(); await body.discard(); },
        async finish() {
          const ids: string[] = [];
          try {
            await body.flush();
            const { auth, trace } = await check.end();
            await commit([...byDomain.values()], delivery, { bodyId: body.bodyId, trace: new TextEncoder().encode(trace), headers: body.headers(), auth, now }, ids);
            return ids;
          } catch (e) {
            // A body a committed message names stays (its posts go out); otherwise nothing names it.
            if (!ids.length) await body.discard();
            throw e;
          } finally {
            if (ids.length) subscribers.each((sub) => sub.outboxQueued());
          }
        },
      };
    },
  };
  return api;
}

export type Receiver = ReturnType<typeof createReceiver>;

/** When a message received at `now` expires: `keepMs` later (0: never), STORE_DAYS when unset. */
function expiryOf(now: number, keepMs: number | undefined): number {
  if (keepMs === 0) return NEVER;
  return now + (keepMs ?? STORE_DAYS * 86_400_000);
}

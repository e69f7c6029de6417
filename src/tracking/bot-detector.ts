// The stateful side of bot detection shared by the tracking endpoints and the native bot API:
// honeypot memory, per-message interaction patterns and cached MX look-ups around the pure
// classifier.
import type { Resolver } from "../dns.ts";
import {
  classifyInteraction, createClassifierContext, createHoneypotMemory, createInteractionTracker, HONEYPOT_LINK_ID,
  type BotVerdict,
} from "./bot/index.ts";

const MX_CACHE_MS = 3_600_000;
const MX_TIMEOUT_MS = 2_000;

export interface Interaction {
  ip: string;
  userAgent: string;
  action: "open" | "click";
  method?: string;
  /** Recipient domain: its MX reveals the security gateway in front of the mailbox. */
  domain?: string;
  messageId?: string;
  recipientId?: string;
  linkId?: string;
  /** Interaction and delivery times in ms, when known. */
  at?: number;
  deliveredAt?: number;
}

export function createBotDetector(deps: { resolver: Resolver; now: () => number }) {
  const context = createClassifierContext();
  const honeypot = createHoneypotMemory({ now: deps.now });
  const tracker = createInteractionTracker({ now: deps.now });
  const mxCache = new Map<string, { hosts: string[] | undefined; at: number }>();

  async function mxHosts(domain: string): Promise<string[] | undefined> {
    const hit = mxCache.get(domain);
    if (hit && deps.now() - hit.at < MX_CACHE_MS) return hit.hosts;
    const timeout = new Promise<undefined>((r) => setTimeout(() => r(undefined), MX_TIMEOUT_MS));
    const lookup = deps.resolver.mx(domain).then((mx) => mx.sort((a, b) => a.priority - b.priority).map((m) => m.exchange.toLowerCase()), () => [] as string[]);
    const hosts = await Promise.race([lookup, timeout]);
    if (mxCache.size > 50_000) mxCache.clear();
    mxCache.set(domain, { hosts, at: deps.now() });
    return hosts;
  }

  return {
    /** Remembers a honeypot visitor for 30 minutes and counts the hit as one more link of its message. */
    honeypotHit(ip: string, userAgent: string, messageId?: string) {
      honeypot.remember(ip, userAgent);
      if (messageId) tracker.record({ messageId, action: "honeypot", linkId: HONEYPOT_LINK_ID });
    },
    async classify(i: Interaction): Promise<BotVerdict> {
      const at = i.at ?? deps.now();
      const pattern = i.messageId ? tracker.record({ messageId: i.messageId, recipientId: i.recipientId, action: i.action, linkId: i.linkId ?? i.action }) : undefined;
      return classifyInteraction({
        ip: i.ip, userAgent: i.userAgent, action: i.action, method: i.method,
        secondsSinceDelivery: i.deliveredAt !== undefined ? Math.max(0, (at - i.deliveredAt) / 1000) : undefined,
        mxHosts: i.domain ? await mxHosts(i.domain) : undefined,
        hasHoneypotHit: honeypot.isKnown(i.ip, i.userAgent),
        pattern,
      }, context);
    },
  };
}

export type BotDetector = ReturnType<typeof createBotDetector>;

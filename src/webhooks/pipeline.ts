// The webhook pipeline: a loop that fans new events out to the outbox and posts due outbox items,
// woken when events are recorded and otherwise polling. Owns the signing keys and the outbound
// side (outbound.ts) the surfaces use for samples and pings.
import type { ClaimLease, Store } from "../core/store-port.ts";
import type { Resolver } from "../dns.ts";
import type { Logger } from "../log.ts";
import type { Recorded } from "../core/recorder.ts";
import { createFanout } from "./fanout.ts";
import { createWebhookDelivery, type WebhookDeliveryDeps } from "./delivery.ts";
import { createSigningKeys, ensureEventWebhookKeys } from "./keys.ts";
import { createOutbound, type OutboundDeps } from "./outbound.ts";

export { ensureEventWebhookKeys } from "./keys.ts";

const POLL_MS = 500;
const COALESCE_MS = 20;

export interface PipelineDeps {
  store: Store;
  resolver: Resolver;
  now: () => number;
  log: Logger;
  /** The installation-wide HMAC key (account-level targets). */
  signingKey: string;
  config: WebhookDeliveryDeps["config"] & OutboundDeps["config"];
  publicUrl?: string;
  loadInbound?: OutboundDeps["loadInbound"];
  spamCheck?: OutboundDeps["spamCheck"];
  /** This node's claims on outbox items. */
  lease: ClaimLease;
}

export async function createEventPipeline(deps: PipelineDeps) {
  const eventKeys = await ensureEventWebhookKeys(deps.store);
  const keys = createSigningKeys({ store: deps.store, installationKey: deps.signingKey });
  const outbound = createOutbound({ resolver: deps.resolver, now: deps.now, config: deps.config, keys, eventWebhookKey: eventKeys.privateKeyPem,
    publicUrl: deps.publicUrl, loadInbound: deps.loadInbound, spamCheck: deps.spamCheck });
  const fanout = createFanout({ store: deps.store, now: deps.now });
  let running = false;
  let wake: (() => void) | null = null;
  let done: Promise<void> | null = null;
  // A finished POST may free a slot of a target with more due items: claim again soon.
  const delivery = createWebhookDelivery({ store: deps.store, now: deps.now, log: deps.log, outbound, config: deps.config, lease: deps.lease,
    onFree: () => wake?.() });
  let renewTimer: ReturnType<typeof setInterval> | null = null;

  /** Fans out new events and starts due POSTs; never waits for a POST to finish. */
  async function round(): Promise<number> {
    const fanned = await fanout.run();
    if (fanned.queued) delivery.expectDue();
    const started = await delivery.dispatch();
    return fanned.events + started;
  }

  async function loop() {
    while (running) {
      let busy = 0;
      try { busy = await round(); } catch (e) { deps.log.error("event pipeline round failed", { error: String(e) }); }
      if (busy === 0 && running) await new Promise<void>((r) => { const t = setTimeout(r, POLL_MS); wake = () => { clearTimeout(t); r(); }; });
      // While events keep coming (an accept burst wakes the loop per message), gather them for a
      // moment: one round per batch, not one transaction per event.
      else if (running) await Bun.sleep(COALESCE_MS);
      wake = null;
    }
  }

  return {
    publicKey: eventKeys.publicKey,
    keys,
    outbound,
    start() {
      if (running) return;
      running = true;
      // Posts in flight when the last server stopped or crashed are due again before anything is claimed.
      done = delivery.recover().catch((e) => deps.log.error("taking back webhook claims failed", { error: String(e) })).then(loop);
      renewTimer = setInterval(() => void delivery.renew().catch((e) => deps.log.error("could not renew webhook claims", { error: String(e) })),
        Math.max(100, Math.floor(deps.lease.leaseMs / 3)));
      renewTimer.unref?.();
    },
    /** Wakes the loop: new events were recorded, an item was queued or targets changed. */
    poke() { delivery.expectDue(); wake?.(); },
    /** An outbox subscriber (inbound posts, bot pushes): new items are worth a round now. */
    outboxQueued() { delivery.expectDue(); wake?.(); },
    /** A recorder subscriber: new events are worth a round now. */
    recorded(r: Recorded) {
      if (r.messages) void fanout.remember(r.messages);
      if (r.events.length) wake?.();
    },
    async stop() {
      running = false;
      wake?.();
      await done;
      await delivery.drain();
      if (renewTimer) clearInterval(renewTimer);
      renewTimer = null;
    },
    /** One round (fan-out and the POSTs it starts), for tests. */
    round,
    /** Per-target in-flight and backoff state. */
    lanes: () => delivery.lanes(),
  };
}

export type EventPipeline = Awaited<ReturnType<typeof createEventPipeline>>;

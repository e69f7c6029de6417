// The webhook pipeline: a loop that fans new events out to the outbox and posts due outbox items,
// woken when events are recorded and otherwise polling. Owns the signing keys and the outbound
// side (outbound.ts) the surfaces use for samples and pings.
import type { Store } from "../store/store.ts";
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
}

export async function createEventPipeline(deps: PipelineDeps) {
  const eventKeys = await ensureEventWebhookKeys(deps.store);
  const keys = createSigningKeys({ store: deps.store, installationKey: deps.signingKey });
  const outbound = createOutbound({ resolver: deps.resolver, now: deps.now, config: deps.config, keys, eventWebhookKey: eventKeys.privateKeyPem });
  const fanout = createFanout({ store: deps.store, now: deps.now });
  const delivery = createWebhookDelivery({ store: deps.store, now: deps.now, log: deps.log, outbound, config: deps.config });
  let running = false;
  let wake: (() => void) | null = null;
  let done: Promise<void> | null = null;

  async function round(): Promise<number> {
    const fanned = await fanout.run();
    const posted = await delivery.runOnce();
    return fanned + posted;
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
    start() { if (!running) { running = true; done = loop(); } },
    /** Wakes the loop: new events were recorded, an item was queued or targets changed. */
    poke() { fanout.invalidate(); delivery.invalidate(); wake?.(); },
    /** A recorder subscriber: new events are worth a round now. */
    recorded(r: Recorded) { if (r.events.length) { fanout.invalidate(); delivery.invalidate(); wake?.(); } },
    async stop() { running = false; wake?.(); await done; },
    /** One full round, for tests. */
    round,
  };
}

export type EventPipeline = Awaited<ReturnType<typeof createEventPipeline>>;

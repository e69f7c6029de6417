// The event pipeline: a loop that fans new events out to the outbox and posts due outbox items,
// woken when events are recorded and otherwise polling. Also owns the SendGrid-format signing key.
import { generateKeyPairSync } from "node:crypto";
import type { Store } from "../store/store.ts";
import type { Resolver } from "../dns.ts";
import type { Logger } from "../log.ts";
import { createFanout } from "./fanout.ts";
import { createWebhookDelivery, type WebhookDeliveryDeps } from "./webhook-delivery.ts";

const POLL_MS = 500;
const COALESCE_MS = 20;

/** The account's ECDSA P-256 pair for SendGrid-format webhooks, created on first use. */
export async function ensureEventWebhookKeys(store: Store): Promise<{ privateKeyPem: string; publicKey: string }> {
  const existing = await store.control.getEventWebhookKeys();
  if (existing) return existing;
  const pair = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const keys = {
    privateKeyPem: pair.privateKey.export({ type: "pkcs8", format: "pem" }) as string,
    publicKey: pair.publicKey.export({ type: "spki", format: "der" }).toString("base64"),
  };
  await store.control.setEventWebhookKeys(keys);
  return keys;
}

export interface PipelineDeps {
  store: Store;
  resolver: Resolver;
  now: () => number;
  log: Logger;
  signingKey: string;
  config: WebhookDeliveryDeps["config"];
}

export async function createEventPipeline(deps: PipelineDeps) {
  const keys = await ensureEventWebhookKeys(deps.store);
  const fanout = createFanout({ store: deps.store, now: deps.now });
  const delivery = createWebhookDelivery({ ...deps, eventWebhookKey: keys.privateKeyPem });
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
    publicKey: keys.publicKey,
    start() { if (!running) { running = true; done = loop(); } },
    /** Wakes the loop: new events were recorded or targets changed. */
    poke() { fanout.invalidate(); delivery.invalidate(); wake?.(); },
    async stop() { running = false; wake?.(); await done; },
    /** One full round, for tests. */
    round,
  };
}

export type EventPipeline = Awaited<ReturnType<typeof createEventPipeline>>;

// Scheduled-send holds at delivery (core/send-batches.ts): a message of a paused batch waits, one
// of a cancelled batch is never sent. Read from the store before each attempt, so a hold set on
// any node and before any restart is honoured; cached for a second per batch.
import type { SendBatch, Store, StoredMessage } from "../../core/store-port.ts";
import type { Domain } from "../../core/model.ts";

export type Hold = NonNullable<SendBatch["hold"]>;

const CACHE_MS = 1_000;
const MAX_CACHED = 10_000;

export function createHoldCheck(deps: { store: Store; now: () => number; domainOf: (name: string) => Promise<Domain | null> }) {
  const cache = new Map<string, { batch: SendBatch | null; at: number }>();
  async function batchOf(id: string): Promise<SendBatch | null> {
    const hit = cache.get(id);
    if (hit && deps.now() - hit.at < CACHE_MS) return hit.batch;
    const batch = await deps.store.control.getBatch(id);
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(id, { batch, at: deps.now() });
    return batch;
  }
  /** The hold on `message`'s batch, or null (no batch, no hold, or a batch of another domain or tenant). */
  return async function holdOf(message: StoredMessage): Promise<Hold | null> {
    const id = message.extra?.batchId;
    if (!id) return null;
    const batch = await batchOf(id);
    if (!batch?.hold) return null;
    const domain = await deps.domainOf(message.domain);
    if (batch.domainId !== null && domain?.id !== batch.domainId) return null;
    // Another tenant's batch id on this mail holds nothing: a tenant pauses and cancels only its own mail.
    if ((domain?.tenantId ?? 0) !== (batch.tenantId ?? 0)) return null;
    return batch.hold;
  };
}

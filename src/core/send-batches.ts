// Scheduled-send batches: an id a caller gets before sending (SendGrid's /v3/mail/batch) and puts
// on scheduled mail, so that the whole batch can later be paused (its mail waits) or cancelled
// (never sent). The hold is kept in the store and read by the MTA before each attempt, so it
// survives restarts. Batches are a tenant's (docs/tenants.md): a domain key sees its domain's
// batches and its tenant's account ones; an account key every batch of the tenant it acts for.
import { randomBytes } from "node:crypto";
import type { Principal } from "./model.ts";
import type { SendBatch, Store } from "./store-port.ts";
import { invalid, notFound } from "./errors.ts";
import type { AuditWriter } from "./audit.ts";

export type BatchHold = NonNullable<SendBatch["hold"]>;
export const BATCH_HOLDS: BatchHold[] = ["pause", "cancel"];

/** 32 letters and digits, like SendGrid's batch ids. */
function newBatchId(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return [...randomBytes(32)].map((b) => alphabet[b % alphabet.length]).join("");
}

export function createSendBatchService(deps: { store: Store; now: () => number; audit?: AuditWriter }) {
  const { store } = deps;
  const scopeOf = (p: Principal) => (p.kind === "domain" && p.domain ? p.domain.id : null);
  const tenantOf = (p: Principal) => p.tenant ?? 0;
  const isVisible = (p: Principal, b: SendBatch) =>
    b.tenantId === tenantOf(p) && (scopeOf(p) === null || b.domainId === null || b.domainId === scopeOf(p));

  /** The batch, or null when it does not exist or the key cannot see it. */
  async function find(p: Principal, id: string): Promise<SendBatch | null> {
    const b = id ? await store.control.getBatch(id) : null;
    return b && isVisible(p, b) ? b : null;
  }

  return {
    async create(p: Principal): Promise<SendBatch> {
      const at = deps.now();
      const batch: SendBatch = { id: newBatchId(), domainId: scopeOf(p), tenantId: tenantOf(p), hold: null, createdAt: at, updatedAt: at };
      await store.control.insertBatch(batch);
      await deps.audit?.record("batch.create", batch.id, batch.tenantId);
      return batch;
    },
    find,
    /** Batches with a hold, oldest first. */
    async held(p: Principal): Promise<SendBatch[]> {
      return (await store.control.listBatches(tenantOf(p))).filter((b) => b.hold !== null && isVisible(p, b));
    },
    /** Pauses or cancels a batch (or changes its hold). */
    async hold(p: Principal, id: string, hold: string): Promise<SendBatch> {
      if (!BATCH_HOLDS.includes(hold as BatchHold)) throw invalid(`status must be one of ${BATCH_HOLDS.join(", ")}`, "status");
      const b = await find(p, id);
      if (!b) throw invalid("invalid batch id", "batch_id");
      await store.control.setBatchHold(id, hold as BatchHold, deps.now());
      await deps.audit?.record(`batch.${hold}`, id, b.tenantId);
      return { ...b, hold: hold as BatchHold };
    },
    /** Lifts a batch's hold: its mail goes out when due. */
    async release(p: Principal, id: string): Promise<void> {
      const b = await find(p, id);
      if (!b || b.hold === null) throw notFound(`batch ${id} has no status`);
      await store.control.setBatchHold(id, null, deps.now());
      await deps.audit?.record("batch.release", id, b.tenantId);
    },
  };
}

export type SendBatchService = ReturnType<typeof createSendBatchService>;
